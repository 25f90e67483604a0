/**
 * The member card's signed token (issue 27, item 3): what the card's QR code holds, so anyone with
 * the museum's public key (`/.well-known/member-card-key.json`) can check a card offline at the door.
 *
 * A compact JWS (a JWT) signed with Ed25519 (`EdDSA`, `jose`): the member number (`sub`), the level
 * (`lvl`), the membership's end (`until`, a date), which cardholder (`h`, 0 = the first) and the name
 * printed (`name`), and `exp`: the end plus the grace days, so a member in grace is not turned away.
 *
 * The private key is derived from the app secret (HMAC-SHA256 with this purpose, as the staff's
 * token keys are, `lib/staff/tokens.ts`), used as the Ed25519 seed: every instance signs with the
 * same key, nothing secret is stored (a database dump holds no signing key), and the key is never
 * logged or served; only its public half is. Changing `APP_SECRET` changes the key, and cards
 * printed before then no longer verify (new ones are in the portal and the emails).
 *
 * @module
 */
import { hmacSha256 } from "@/lib/core/sha256.ts";

// jose loads with the first card, not with the server.
const jose = () => import("jose");

/** The purpose the card key is derived for (bump it to rotate every card's key). */
const PURPOSE = "member-card-key/v1";
/** The token's `typ` header: no other token of the product can pass for a card's. */
const TOKEN_TYPE = "member-card+jwt";

/** What a card's token says. */
export interface MemberCardClaims {
  /** The member number. */
  number: string;
  /** The membership level's id. */
  levelId: number;
  /** The membership's end (ISO 8601), the card's "valid until". */
  validUntil: string;
  /** Which cardholder: 0 for the first (the member by default). */
  holder: number;
  /** The name the card prints. */
  name: string;
}

/** The public key as a JWK (`/.well-known/member-card-key.json`). */
export interface MemberCardPublicJwk {
  kty: "OKP";
  crv: "Ed25519";
  x: string;
  kid: string;
  alg: "EdDSA";
  use: "sig";
}

/** The signing key: the private key (never leaves the server) and its public JWK. */
export interface MemberCardKey {
  privateKey: CryptoKey;
  publicJwk: MemberCardPublicJwk;
}

/** Why a card's token was refused: `expired` only for a genuine token past its `exp`. */
export class MemberCardTokenError extends Error {
  constructor(readonly reason: "invalid" | "expired") {
    super(`member card token ${reason}`);
    this.name = "MemberCardTokenError";
  }
}

// PKCS#8 of an Ed25519 private key is this fixed prefix and the 32-byte seed (RFC 8410).
const PKCS8_ED25519_PREFIX = [
  0x30,
  0x2e,
  0x02,
  0x01,
  0x00,
  0x30,
  0x05,
  0x06,
  0x03,
  0x2b,
  0x65,
  0x70,
  0x04,
  0x22,
  0x04,
  0x20,
];

// Bound: one key per APP_SECRET, so one entry in a server (a few in tests).
const keys = new Map<string, Promise<MemberCardKey>>();

async function deriveCardKey(appSecret: string): Promise<MemberCardKey> {
  if (appSecret === "") throw new Error("memberCardKey: appSecret is empty");
  const seed = hmacSha256(appSecret, PURPOSE);
  const der = new Uint8Array([...PKCS8_ED25519_PREFIX, ...seed]);
  // Extractable only to read its public half below; the key object never leaves this module's callers.
  const extractable = await crypto.subtle.importKey("pkcs8", der, { name: "Ed25519" }, true, ["sign"]);
  const { x } = await crypto.subtle.exportKey("jwk", extractable);
  const privateKey = await crypto.subtle.importKey("pkcs8", der, { name: "Ed25519" }, false, ["sign"]);
  const { calculateJwkThumbprint } = await jose();
  const kid = await calculateJwkThumbprint({ kty: "OKP", crv: "Ed25519", x: x! });
  return { privateKey, publicJwk: { kty: "OKP", crv: "Ed25519", x: x!, kid, alg: "EdDSA", use: "sig" } };
}

/**
 * The card key of this install (derived once per process and kept).
 *
 * @example
 * ```ts
 * const { publicJwk } = await memberCardKey(config.appSecret); // served at /.well-known/member-card-key.json
 * ```
 */
export function memberCardKey(appSecret: string): Promise<MemberCardKey> {
  let key = keys.get(appSecret);
  if (!key) {
    key = deriveCardKey(appSecret);
    keys.set(appSecret, key);
    key.catch(() => keys.delete(appSecret));
  }
  return key;
}

/**
 * Signs a card's token, expiring `graceDays` after the membership's end.
 *
 * @example
 * ```ts
 * const token = await signMemberCardToken(key, { number: "M7K2Q9", levelId: 2, validUntil, holder: 0, name: "Dana Levi" }, 30);
 * ```
 */
export async function signMemberCardToken(
  key: MemberCardKey,
  claims: MemberCardClaims,
  graceDays: number,
  now: Date = new Date(),
): Promise<string> {
  const { SignJWT } = await jose();
  const exp = Math.floor(Date.parse(claims.validUntil) / 1000) + graceDays * 86_400;
  return await new SignJWT({
    lvl: claims.levelId,
    until: claims.validUntil.slice(0, 10),
    h: claims.holder,
    name: claims.name,
  })
    .setProtectedHeader({ alg: "EdDSA", typ: TOKEN_TYPE, kid: key.publicJwk.kid })
    .setSubject(claims.number)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(exp)
    .sign(key.privateKey);
}

/**
 * Checks a card's token with only the public key; answers what it says. Throws
 * {@link MemberCardTokenError}: `expired` for a genuine token past its `exp`, `invalid` for any other
 * (a changed byte, another key, another kind of token, a claim missing).
 *
 * @example
 * ```ts
 * const publicJwk = await (await fetch(`${origin}/.well-known/member-card-key.json`)).json();
 * const card = await verifyMemberCardToken(scanned, publicJwk); // { number, levelId, validUntil, holder, name }
 * ```
 */
export async function verifyMemberCardToken(
  token: string,
  publicJwk: Pick<MemberCardPublicJwk, "kty" | "crv" | "x">,
  now: Date = new Date(),
): Promise<MemberCardClaims & { expiresAt: Date }> {
  const { errors, importJWK, jwtVerify } = await jose();
  let payload;
  try {
    const key = await importJWK({ kty: publicJwk.kty, crv: publicJwk.crv, x: publicJwk.x }, "EdDSA");
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ["EdDSA"],
      typ: TOKEN_TYPE,
      currentDate: now,
      requiredClaims: ["sub", "exp", "iat"],
    }));
  } catch (e) {
    // jose checks the signature before the claims: "expired" is said only of a genuine token.
    throw new MemberCardTokenError(e instanceof errors.JWTExpired ? "expired" : "invalid");
  }
  const { sub, lvl, until, h, name, exp } = payload;
  if (
    typeof sub !== "string" || typeof lvl !== "number" || typeof until !== "string" ||
    typeof h !== "number" || typeof name !== "string" || typeof exp !== "number"
  ) throw new MemberCardTokenError("invalid");
  return { number: sub, levelId: lvl, validUntil: until, holder: h, name, expiresAt: new Date(exp * 1000) };
}

/**
 * The public key alone, as served at `/.well-known/member-card-key.json`.
 *
 * @example
 * ```ts
 * const jwk = await memberCardPublicKey(config.appSecret); // { kty: "OKP", crv: "Ed25519", x, kid, … }
 * ```
 */
export async function memberCardPublicKey(appSecret: string): Promise<MemberCardPublicJwk> {
  return (await memberCardKey(appSecret)).publicJwk;
}
