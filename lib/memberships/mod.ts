/**
 * Memberships (issue 27): what a gift at a membership level does to the donor's membership (its
 * terms, renewals, upgrades and downgrades), its state at a moment (active, grace, lapsed), member
 * numbers, and the changes payments carry into storage.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export { DEFAULT_GRACE_DAYS, type MembershipSettings, readMemberships } from "./config.ts";
export { levelGiftChange, type MembershipContext, monthlyChargeChange } from "./changes.ts";
export { memberNumberOf, newMemberNumber } from "./numbers.ts";
export { refundedTermChange } from "./refunds.ts";
export { type Billing, levelAt, membershipState } from "./state.ts";
export { addMonths, applyGift, lapsesAt, type LevelGift, type TermRules } from "./terms.ts";
export { type MembershipView, readMembership } from "./view.ts";
