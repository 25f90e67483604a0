/**
 * The request signature of spec section 7, shared by the server and browsers (WebCrypto only):
 * `signature` = hex HMAC-SHA256 over the payload's `key=value` pairs sorted by key, `signature`
 * excluded, joined with `&`, each value written as JavaScript's `String()` writes it.
 *
 * @module
 */

/** A payload as signed: flat keys with string, number or boolean values. */
export type SignablePayload = Record<string, string | number | boolean | null>;

/**
 * The exact text that is signed.
 *
 * @example
 * ```ts
 * canonicalString({ b: 2, a: true, signature: "x" }); // "a=true&b=2"
 * ```
 */
export function canonicalString(payload: Record<string, unknown>): string {
  return Object.keys(payload)
    .filter((key) => key !== "signature" && payload[key] !== undefined)
    .sort()
    .map((key) => `${key}=${String(payload[key])}`)
    .join("&");
}

/**
 * Turns a hex string into bytes; throws on anything that is not even-length hex.
 *
 * @example
 * ```ts
 * hexToBytes("00ff"); // Uint8Array [0, 255]
 * ```
 */
export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) throw new TypeError("not a hex string");
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** Lower-case hex of bytes. */
export function bytesToHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += HEX[byte];
  return hex;
}

// A byte's two hex digits, looked up: the server makes a key id and a key per donation page.
const HEX = Array.from({ length: 256 }, (_, i) => (i < 16 ? "0" : "") + i.toString(16));

/** Imports raw key bytes for HMAC-SHA256. */
export function hmacKey(
  raw: Uint8Array<ArrayBuffer>,
  usages: KeyUsage[] = ["sign", "verify"],
): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, usages);
}

/**
 * Adds `keyId`, `timestamp`, `nonce` and `signature` to a payload, signed with a hex key.
 *
 * @example
 * ```ts
 * const body = await signPayload({ amount: 100, currency: "nis" }, { keyId, key });
 * await fetch("/api/payment/create", { method: "POST", body: JSON.stringify(body), headers });
 * ```
 */
export async function signPayload<P extends SignablePayload>(
  payload: P,
  signingKey: { keyId: string; key: string },
  now: number = Date.now(),
): Promise<P & { keyId: string; timestamp: number; nonce: string; signature: string }> {
  const nonceBytes = crypto.getRandomValues(new Uint8Array(18));
  const nonce = btoa(String.fromCharCode(...nonceBytes)).replaceAll("+", "-").replaceAll("/", "_");
  const full = { ...payload, keyId: signingKey.keyId, timestamp: now, nonce };
  const key = await hmacKey(hexToBytes(signingKey.key), ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(canonicalString(full)));
  return { ...full, signature: bytesToHex(new Uint8Array(mac)) };
}
