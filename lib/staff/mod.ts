/**
 * Staff: admin accounts, passwords, roles, sessions' tokens and the two-factor sign-in.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export { type AdminRole, ADMINS, ANY_ROLE, DESK, EVERY_ROLE, FINANCE, OWNERS, requireRole } from "./roles.ts";
export { deriveKey, hashRefreshToken, REFRESH_TOKEN_TTL_DAYS } from "./tokens.ts";
