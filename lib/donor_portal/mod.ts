/**
 * The donor portal: signing in by email link, a donor's gifts, receipts, data export and erasure, and the manage link every donor email carries.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export {
  createManageToken,
  type EnqueueMessage,
  MANAGE_LINK_TTL_MS,
  type ManageLinkKey,
  manageLinkKey,
  manageLinkUrl,
} from "./manage_link.ts";
export { SIGN_IN_TTL_MS, type SignInKey, signInKey, signInToken, signInUrl } from "./sign_in.ts";
export {
  cardholdersOfForm,
  changeCardholders,
  InvalidCardholdersError,
  type PortalMembership,
  sessionMembership,
} from "./membership.ts";
