/**
 * The short-lived token between the two steps of a sign-in with two-factor: the password step
 * answers it instead of a session, and the code step trades it (with a valid code) for one. An
 * HS256 JWT of its own type and audience, under a key derived from APP_SECRET for this purpose
 * only, so it can never pass as an access token (nor one as it). Server only.
 *
 * @module
 */

import { deriveKey, ISSUER } from "./tokens.ts";

const jose = () => import("jose");

/** How long the code step may come after the password step: 5 minutes. */
export const PENDING_TOKEN_TTL_SECONDS = 300;
const AUDIENCE = "museum-donations/second-factor";
const TOKEN_TYPE = "2fa-pending+jwt";
const PURPOSE = "admin-second-factor-pending/v1";

// Bound: one key per APP_SECRET, so one entry in a server (a few in tests).
const keys = new Map<string, Promise<Uint8Array>>();
const keyOf = (appSecret: string) => {
  let key = keys.get(appSecret);
  if (!key) keys.set(appSecret, key = deriveKey(appSecret, PURPOSE));
  return key;
};

/**
 * A pending token for `adminId`, valid {@link PENDING_TOKEN_TTL_SECONDS} from `now`.
 *
 * @example
 * ```ts
 * const { token, expiresAt } = await createPendingToken(config.appSecret, admin.id);
 * ```
 */
export async function createPendingToken(
  appSecret: string,
  adminId: string,
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: string }> {
  const iat = Math.floor(now.getTime() / 1000);
  const { SignJWT } = await jose();
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: TOKEN_TYPE })
    .setSubject(adminId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + PENDING_TOKEN_TTL_SECONDS)
    .setJti(crypto.randomUUID())
    .sign(await keyOf(appSecret));
  return { token, expiresAt: new Date((iat + PENDING_TOKEN_TTL_SECONDS) * 1000).toISOString() };
}

/**
 * The admin id a pending token was made for, or null when it is not one of ours, was changed or
 * has expired. Never throws.
 *
 * @example
 * ```ts
 * const adminId = await readPendingToken(config.appSecret, body.pendingToken);
 * ```
 */
export async function readPendingToken(
  appSecret: string,
  token: string,
  now: Date = new Date(),
): Promise<string | null> {
  const { jwtVerify } = await jose();
  try {
    const { payload } = await jwtVerify(token, await keyOf(appSecret), {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: AUDIENCE,
      typ: TOKEN_TYPE,
      currentDate: now,
      requiredClaims: ["sub", "iat", "exp", "jti"],
      maxTokenAge: PENDING_TOKEN_TTL_SECONDS,
    });
    return typeof payload.sub === "string" && payload.sub !== "" ? payload.sub : null;
  } catch {
    return null;
  }
}
