/**
 * The donor portal's session cookie (issue 15, `lib/donor_portal/sign_in.ts`): HttpOnly (no script can
 * read it), SameSite=Lax (sent when the donor follows a link to the portal, not with another site's
 * form or fetch), Secure in production, path `/`, and living no longer than the session (a day).
 * The cookie holds a random token; storage holds only its hash.
 *
 * @module
 */
import { parse } from "hono/utils/cookie";

/** The cookie's name. */
export const SESSION_COOKIE = "donor_session";

/**
 * The session token the request carries, or null.
 *
 * @example
 * ```ts
 * readSessionCookie(req); // "Zk3…" (43 characters) from a signed-in donor
 * ```
 */
export function readSessionCookie(req: Request): string | null {
  const header = req.headers.get("cookie");
  return header ? parse(header, SESSION_COOKIE)[SESSION_COOKIE] || null : null;
}

/**
 * The `Set-Cookie` value of a new session, living until `expiresAt` (ISO) from `now`.
 *
 * @example
 * ```ts
 * headers.set("set-cookie", sessionCookie(token, session.expiresAt, config));
 * ```
 */
export function sessionCookie(
  token: string,
  expiresAt: string,
  config: { env: string },
  now: Date = new Date(),
): string {
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - now.getTime()) / 1000));
  const secure = config.env === "production" ? "; Secure" : "";
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

/** The `Set-Cookie` value that removes the session cookie (sign out). */
export function clearedSessionCookie(config: { env: string }): string {
  const secure = config.env === "production" ? "; Secure" : "";
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`;
}
