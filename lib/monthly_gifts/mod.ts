/**
 * Monthly gifts: billing, a donor's changes to a gift, card updates and their reconciliation.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export { nextMonth, RETRY_DAYS } from "./billing_dates.ts";
export { cardUpdateLocks } from "./card_update_limits.ts";
export {
  CANCEL_REASONS,
  cancelGift,
  changeAmount,
  ChargeInProgressError,
  type GiftChangeContext,
  type GiftChangeResult,
  GiftEndedError,
  type GiftRef,
  InvalidGiftChangeError,
  NoSuchGiftError,
  pauseGift,
  resumeGift,
  skipNextCharge,
} from "./subscription_changes.ts";
