/**
 * Memberships (issue 27): what a gift at a membership level does to the donor's membership (its
 * terms, renewals, upgrades and downgrades), its state at a moment (active, grace, lapsed), member
 * numbers, and the changes payments carry into storage.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export {
  DEFAULT_GRACE_DAYS,
  DEFAULT_REMINDER_DAYS,
  type MembershipSettings,
  readMemberships,
} from "./config.ts";
export { readWallet, type WalletSettings } from "./config_wallet.ts";
export {
  autoRenewalChange,
  levelGiftChange,
  type MembershipContext,
  monthlyChargeChange,
} from "./changes.ts";
export { memberNumberOf, newMemberNumber } from "./numbers.ts";
export { listMembers, type MemberListQuery, memberRow } from "./member_list.ts";
export { refundedTermChange } from "./refunds.ts";
export { type Billing, levelAt, membershipState } from "./state.ts";
export { addMonths, applyGift, lapsesAt, type LevelGift, type TermRules } from "./terms.ts";
export { type MembershipView, readMembership } from "./view.ts";
export {
  createRenewalToken,
  readRenewalToken,
  RENEWAL_LINK_TTL_MS,
  type RenewalClaim,
  type RenewalKey,
  renewalKey,
  renewalLinkUrl,
} from "./renewal_link.ts";
export {
  AUTO_RENEW_NOTICE_DAYS,
  isRenewalStillDue,
  renewalMessageKey,
  type RenewalPassContext,
  runRenewalPass,
} from "./renewals.ts";
export {
  AUTO_RENEW_OFF_TTL_MS,
  type AutoRenewOffClaim,
  autoRenewOffKey,
  autoRenewOffUrl,
  createAutoRenewOffToken,
  type NextAutoRenewal,
  nextAutoRenewal,
  readAutoRenewOffToken,
  turnOffAutoRenew,
} from "./auto_renew.ts";
export { type RenewalPrefill, renewalPrefill } from "./renewal_page.ts";
export {
  type MemberCardClaims,
  memberCardKey,
  type MemberCardPublicJwk,
  memberCardPublicKey,
  MemberCardTokenError,
  signMemberCardToken,
  verifyMemberCardToken,
} from "./card_token.ts";
export {
  cardFileName,
  cardholderNames,
  type MemberCardContext,
  memberCardFace,
  memberCardFile,
  type MemberCardFormat,
  memberCardPdfs,
  membershipDate,
} from "./card.ts";
export type { MemberCardFace } from "./card_face.ts";
export { MemberCardPool, type RenderMemberCard } from "./card_pool.ts";
export { MemberCardsBusyError, MembershipError, NoSuchMembershipError } from "./errors.ts";
export { giftDeliveryMessage, memberCardMessage, membershipMessage } from "./messages.ts";
export { CARD_RESEND_REPEAT_MS, resendMemberCard } from "./resend.ts";
