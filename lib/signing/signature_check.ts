/**
 * Checking signed requests on the server, and issuing the short-lived keys browsers sign with.
 *
 * Keys:
 * - Browser keys are derived, never stored: `keyId = "v1.<expiry ms>.<random>"` and
 *   `key = HMAC-SHA256(APP_SECRET, keyId)`. A page gets a fresh one (valid 30 minutes); the
 *   server re-derives it from the id, so no long-lived secret reaches a browser.
 * - Server-to-server keys (kiosk devices, integrations) come from `SIGNING_KEYS`: each secret is
 *   hex (32 bytes or more), used as the HMAC key exactly like a browser key.
 *
 * A request is refused (401, with the reason) when its signature is missing or wrong, its key is
 * unknown or expired, its timestamp is more than 5 minutes off, or its nonce was seen before
 * (nonces are claimed in storage, so replay protection holds across app instances).
 *
 * @module
 */
import { randomHex } from "@/lib/core/random.ts";
import { hmacSha256Hex } from "@/lib/core/sha256.ts";
import { canonicalString, hexToBytes, hmacKey } from "@/lib/shared/signing.ts";
import type { NonceRepository } from "@/lib/storage/types.ts";

/** How long a browser key is valid. */
export const BROWSER_KEY_TTL_MS = 30 * 60 * 1000;
/** How far a request's timestamp may be from the server's clock. */
export const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Why a signed request was refused. */
export class SignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SignatureError";
  }
}

/** A key a browser signs with: its id and the hex key. */
export interface BrowserKey {
  keyId: string;
  key: string;
  expiresAt: number;
}

// Browser keys are HMAC-SHA256(APP_SECRET, keyId), derived for every donation page and every
// signed request: synchronously, as node:crypto's HMAC did in about a third of the CPU time that
// WebCrypto's import-and-sign took here (bench/README.md, server rendering), but in plain
// JavaScript (`sha256.ts`): loading node:crypto cost about 40 ms of every server start.
function browserKeyOf(appSecret: string, keyId: string): string {
  return hmacSha256Hex(appSecret, keyId);
}

/**
 * Issues a browser key valid for 30 minutes.
 *
 * @example
 * ```ts
 * const { keyId, key } = issueBrowserKey(config.appSecret); // rendered into the page
 * ```
 */
export function issueBrowserKey(appSecret: string, now: number = Date.now()): BrowserKey {
  const expiresAt = now + BROWSER_KEY_TTL_MS;
  const keyId = `v1.${expiresAt}.${randomHex(16)}`;
  return { keyId, key: browserKeyOf(appSecret, keyId), expiresAt };
}

/**
 * Parses `SIGNING_KEYS` (`id:secret,id2:secret2`); ids may not look like browser key ids.
 *
 * @example
 * ```ts
 * parseSigningKeys("kiosk-1:9f2c…(64+ hex),crm:77ab…"); // Map { "kiosk-1" => "9f2c…", "crm" => "77ab…" }
 * ```
 */
export function parseSigningKeys(value: string | undefined): Map<string, string> {
  const keys = new Map<string, string>();
  // An entry is named by its position (and its id once that is valid), never by its text: a
  // malformed entry may be all secret (a missing colon), and a start-up error lands in logs.
  const parts = (value ?? "").split(",");
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i].trim();
    if (!part) continue;
    const at = part.indexOf(":");
    const id = part.slice(0, at), secret = part.slice(at + 1);
    if (at <= 0 || !/^[A-Za-z0-9_-]{1,64}$/.test(id) || id.startsWith("v1")) {
      throw new Error(
        `entry ${i + 1} is not id:secret with an id of letters, digits, _ or - (not starting with v1)`,
      );
    }
    if (!/^([0-9a-f]{2}){32,}$/i.test(secret)) {
      throw new Error(
        `the secret of entry ${i + 1} ("${id}") must be hex of 32 bytes or more (64+ hex digits)`,
      );
    }
    if (keys.has(id)) throw new Error(`key "${id}" is given twice (entry ${i + 1})`);
    keys.set(id, secret);
  }
  return keys;
}

/** What {@link verifySignedPayload} needs. */
export interface VerifyOptions {
  appSecret: string;
  serverKeys: Map<string, string>;
  nonces: NonceRepository;
  now?: number;
}

/**
 * Verifies a signed payload (the parsed JSON body, before any normalization) and claims its
 * nonce. Throws {@link SignatureError} naming the reason; answers the key id on success.
 *
 * @example
 * ```ts
 * const { keyId } = await verifySignedPayload(raw, { appSecret, serverKeys, nonces: store.nonces });
 * ```
 */
export async function verifySignedPayload(
  payload: unknown,
  options: VerifyOptions,
): Promise<{ keyId: string }> {
  const now = options.now ?? Date.now();
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) {
    throw new SignatureError("The request is not signed: a JSON object with a signature is expected");
  }
  const p = payload as Record<string, unknown>;
  if (typeof p.signature !== "string" || p.signature === "") {
    throw new SignatureError("The signature is missing");
  }
  if (!/^[0-9a-f]{64}$/i.test(p.signature)) {
    throw new SignatureError("The signature is not a hex HMAC-SHA256");
  }
  if (typeof p.keyId !== "string" || p.keyId === "") throw new SignatureError("The keyId is missing");
  if (typeof p.timestamp !== "number" || !Number.isSafeInteger(p.timestamp)) {
    throw new SignatureError("The timestamp is missing or not a whole number of milliseconds");
  }
  if (Math.abs(now - p.timestamp) > MAX_CLOCK_SKEW_MS) {
    throw new SignatureError("The timestamp is more than 5 minutes away from the server's clock");
  }
  if (typeof p.nonce !== "string" || !/^[A-Za-z0-9_-]{16,128}$/.test(p.nonce)) {
    throw new SignatureError("The nonce is missing or not 16 to 128 characters of A-Z, a-z, 0-9, _ or -");
  }
  for (const [key, value] of Object.entries(p)) {
    if (value !== null && typeof value === "object") {
      throw new SignatureError(`Field ${key} is not a plain value; signed payloads are flat`);
    }
  }

  let keyBytes: Uint8Array<ArrayBuffer>;
  const browser = p.keyId.match(/^v1\.(\d{13})\.[0-9a-f]{32}$/);
  if (browser) {
    if (Number(browser[1]) < now) throw new SignatureError("The signing key has expired; reload the page");
    if (Number(browser[1]) > now + BROWSER_KEY_TTL_MS) {
      throw new SignatureError("The signing key is not valid");
    }
    keyBytes = hexToBytes(browserKeyOf(options.appSecret, p.keyId));
  } else {
    const secret = options.serverKeys.get(p.keyId);
    if (!secret) throw new SignatureError("The signing key is unknown");
    keyBytes = hexToBytes(secret);
  }
  const key = await hmacKey(keyBytes, ["verify"]);
  // crypto.subtle.verify compares in constant time.
  const ok = await crypto.subtle.verify(
    "HMAC",
    key,
    hexToBytes(p.signature.toLowerCase()),
    new TextEncoder().encode(canonicalString(p)),
  );
  if (!ok) throw new SignatureError("The signature does not match the request");
  if (!await options.nonces.claim(`${p.keyId}:${p.nonce}`, now + 2 * MAX_CLOCK_SKEW_MS)) {
    throw new SignatureError("The request was already received (its nonce was used before)");
  }
  return { keyId: p.keyId };
}
