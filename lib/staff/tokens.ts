/**
 * Admin API tokens: short-lived access tokens (HS256 JWT, RFC 9068 `at+jwt`) and opaque refresh
 * tokens, of which only a SHA-256 is stored. Keys are derived per purpose from the app secret.
 * Server only.
 *
 * @module
 */

// jose loads with the first token signed or checked, not with the server (about 9 ms of a cold
// start; bench/README.md).
const jose = () => import("jose");

/** Lifetime of an access token: 15 minutes. */
export const ACCESS_TOKEN_TTL_SECONDS = 900;
/** Lifetime of a refresh token. */
export const REFRESH_TOKEN_TTL_DAYS = 14;
/**
 * A session's absolute lifetime: a refresh-token family is refused this many days after its
 * sign-in, however often it was refreshed (each refresh would otherwise extend it for ever).
 */
export const REFRESH_FAMILY_MAX_DAYS = 30;
/** `iss` of every access token. */
export const ISSUER = "museum-donations";
/** `aud` of every access token: the admin API and nothing else. */
export const AUDIENCE = "museum-donations/admin-api";
/** `typ` header of an access token (RFC 9068), so no other JWT we sign can pass as one. */
export const TOKEN_TYPE = "at+jwt";

// Small allowance for clocks of cooperating machines drifting apart.
const CLOCK_TOLERANCE_SECONDS = 5;

/**
 * Why an access token was refused. Only the reason is exposed: jose's message may echo token
 * content and tells an attacker which check failed.
 *
 * @example
 * ```ts
 * try {
 *   await verifyAccessToken(token, key);
 * } catch (e) {
 *   if (e instanceof TokenError && e.reason === "expired") {
 *     // the client should refresh
 *   }
 * }
 * ```
 */
export class TokenError extends Error {
  readonly reason: "expired" | "invalid";

  constructor(reason: "expired" | "invalid") {
    super(reason === "expired" ? "Access token expired" : "Access token invalid");
    this.name = "TokenError";
    this.reason = reason;
  }
}

/**
 * Derives an independent key for one purpose from the app secret: HMAC-SHA256(appSecret, purpose).
 * One secret in the configuration, and a key leaked from one use opens no other.
 *
 * @example
 * ```ts
 * const key = await deriveKey(config.appSecret, "admin-access-token/v1");
 * key.length; // 32
 * ```
 */
export async function deriveKey(appSecret: string, purpose: string): Promise<Uint8Array> {
  if (appSecret === "") throw new Error("deriveKey: appSecret is empty");
  if (purpose === "") throw new Error("deriveKey: purpose is empty");
  const encoder = new TextEncoder();
  const hmacKey = await crypto.subtle.importKey(
    "raw",
    encoder.encode(appSecret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  return new Uint8Array(await crypto.subtle.sign("HMAC", hmacKey, encoder.encode(purpose)));
}

/**
 * Signs an access token for an admin, valid for {@link ACCESS_TOKEN_TTL_SECONDS} from `now`.
 *
 * @example
 * ```ts
 * const key = await deriveKey(config.appSecret, "admin-access-token/v1");
 * const token = await createAccessToken(key, { adminId: "adm_123" });
 * ```
 */
export async function createAccessToken(
  key: Uint8Array,
  claims: { adminId: string },
  now: Date = new Date(),
): Promise<string> {
  if (claims.adminId === "") throw new Error("createAccessToken: adminId is empty");
  const iat = Math.floor(now.getTime() / 1000);
  const { SignJWT } = await jose();
  return await new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: TOKEN_TYPE })
    .setSubject(claims.adminId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .setJti(crypto.randomUUID())
    .sign(key);
}

/**
 * Verifies an access token and answers whose it is and when it expires. Throws {@link TokenError}:
 * reason "expired" for a genuine but expired token, "invalid" for anything else.
 *
 * @example
 * ```ts
 * const { adminId, expiresAt } = await verifyAccessToken(bearer, key);
 * ```
 */
export async function verifyAccessToken(
  token: string,
  key: Uint8Array,
  now: Date = new Date(),
): Promise<{ adminId: string; expiresAt: Date }> {
  const { errors, jwtVerify } = await jose();
  let payload;
  try {
    ({ payload } = await jwtVerify(token, key, {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      typ: TOKEN_TYPE,
      currentDate: now,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ["sub", "iat", "exp", "jti"],
      // Caps the lifetime even if a token carries a later `exp`, and refuses an `iat` in the future.
      maxTokenAge: ACCESS_TOKEN_TTL_SECONDS,
    }));
  } catch (e) {
    // jose checks the signature before the claims, so "expired" is only said of our own tokens.
    throw new TokenError(e instanceof errors.JWTExpired ? "expired" : "invalid");
  }
  if (typeof payload.sub !== "string" || payload.sub === "" || typeof payload.exp !== "number") {
    throw new TokenError("invalid");
  }
  return { adminId: payload.sub, expiresAt: new Date(payload.exp * 1000) };
}

/**
 * A new refresh token (32 random bytes, base64url without padding: 43 characters) and the hex
 * SHA-256 to store in its place, so a leaked database holds no usable token.
 *
 * @example
 * ```ts
 * const { token, hash } = await newRefreshToken();
 * // give `token` to the client, store `hash`
 * ```
 */
export async function newRefreshToken(): Promise<{ token: string; hash: string }> {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(
    /=+$/,
    "",
  );
  return { token, hash: await hashRefreshToken(token) };
}

/**
 * The hex SHA-256 of a refresh token, to look up the stored record. A plain hash suffices (no KDF):
 * the token has 256 bits of entropy.
 *
 * @example
 * ```ts
 * const record = await store.findRefreshToken(await hashRefreshToken(presented));
 * ```
 */
export async function hashRefreshToken(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}
