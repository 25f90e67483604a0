/**
 * The front desk's offline card check (issue 28, item 2): verifies a member card's QR token in the
 * browser with the museum's public key, so the desk answers at the door when the network is down.
 *
 * The token is `lib/memberships/card_token.ts`'s compact JWS (`typ` `member-card+jwt`, EdDSA,
 * claims `sub`, `lvl`, `until`, `h`, `name`, `iat`, `exp`); the server signs it with `jose`, the
 * browser checks it with WebCrypto's Ed25519 (Chromium 137+, Firefox 129+, Safari 17+), so no JWT
 * library ships to the desk. Where WebCrypto has no Ed25519 (an older browser) or no `crypto.subtle`
 * at all (a page not served over HTTPS), the answer is `unsupported`: the desk then says it cannot
 * check cards offline and the number or the name must be looked up online.
 *
 * A card is `valid` through the day its `until` says (the date printed on it), `grace` after it
 * until `exp` (its end plus the museum's grace days), `expired` from `exp` on. A revoked card
 * still verifies: that is the accepted risk of checking offline (the desk shows when it last synced).
 *
 * @module
 */

/** The token's `typ` header, as the server sets it. */
const TOKEN_TYPE = "member-card+jwt";

/** The part of the public JWK (`/.well-known/member-card-key.json`) the check needs. */
export interface CardPublicJwk {
  kty: string;
  crv: string;
  x: string;
  kid?: string;
}

/** What a genuine card's token says. */
export interface OfflineCard {
  /** The member number. */
  number: string;
  /** The membership level's id. */
  levelId: number;
  /** The membership's end as a date (YYYY-MM-DD), as the card prints it. */
  validUntil: string;
  /** Which cardholder (0 = the first). */
  holder: number;
  /** The name the card prints. */
  name: string;
  /** When the token stops verifying (ISO 8601): the end plus the grace days. */
  expiresAt: string;
}

/** The answer: a genuine card's state with what it says, or why there is none. */
export type OfflineCardAnswer =
  | { status: "valid" | "grace" | "expired"; card: OfflineCard }
  | { status: "invalid" | "unsupported" };

const decoder = new TextDecoder();

function base64url(part: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) throw new TypeError("not base64url");
  const b64 = part.replaceAll("-", "+").replaceAll("_", "/") + "===".slice((part.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function json(part: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(decoder.decode(base64url(part)));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * Whether this browser can check a card's signature offline (WebCrypto with Ed25519).
 *
 * @example
 * ```ts
 * if (!(await canCheckCardsOffline())) showNotice("offline checks need a newer browser");
 * ```
 */
export async function canCheckCardsOffline(): Promise<boolean> {
  if (!globalThis.crypto?.subtle) return false;
  try {
    // Any valid point: the generator's encoding (RFC 8032's test vector 1 public key).
    await importKey({ kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" });
    return true;
  } catch {
    return false;
  }
}

function importKey(jwk: CardPublicJwk): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "jwk",
    { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
    { name: "Ed25519" },
    false,
    [
      "verify",
    ],
  );
}

/**
 * Checks a scanned card token against the museum's public key, at `now`.
 *
 * @example
 * ```ts
 * const answer = await checkCardOffline(scanned, storedKey.jwk);
 * if (answer.status === "valid") show(answer.card.name, answer.card.validUntil);
 * ```
 */
export async function checkCardOffline(
  token: string,
  jwk: CardPublicJwk,
  now: Date = new Date(),
): Promise<OfflineCardAnswer> {
  if (!globalThis.crypto?.subtle) return { status: "unsupported" };
  const parts = token.trim().split(".");
  if (parts.length !== 3) return { status: "invalid" };
  const header = json(parts[0]);
  if (!header || header.alg !== "EdDSA" || String(header.typ).toLowerCase() !== TOKEN_TYPE) {
    return { status: "invalid" };
  }
  let key: CryptoKey;
  try {
    key = await importKey(jwk);
  } catch (e) {
    // No Ed25519 in this browser's WebCrypto; a malformed key (DataError) is the key's fault.
    return {
      status: e instanceof DOMException && e.name === "NotSupportedError" ? "unsupported" : "invalid",
    };
  }
  let genuine = false;
  try {
    const signed = new TextEncoder().encode(`${parts[0]}.${parts[1]}`);
    genuine = await crypto.subtle.verify({ name: "Ed25519" }, key, base64url(parts[2]), signed);
  } catch {
    genuine = false;
  }
  if (!genuine) return { status: "invalid" };
  const claims = json(parts[1]);
  if (!claims) return { status: "invalid" };
  const { sub, lvl, until, h, name, exp, iat } = claims;
  if (
    typeof sub !== "string" || typeof lvl !== "number" || typeof until !== "string" ||
    !/^\d{4}-\d{2}-\d{2}$/.test(until) || typeof h !== "number" || typeof name !== "string" ||
    typeof exp !== "number" || typeof iat !== "number"
  ) return { status: "invalid" };
  const card: OfflineCard = {
    number: sub,
    levelId: lvl,
    validUntil: until,
    holder: h,
    name,
    expiresAt: new Date(exp * 1000).toISOString(),
  };
  if (now.getTime() >= exp * 1000) return { status: "expired", card };
  // Through the printed day (UTC, as the server wrote the date), then the grace days.
  return { status: now.toISOString().slice(0, 10) <= until ? "valid" : "grace", card };
}
