/**
 * What can go wrong with memberships and their cards, as domain errors (`lib/http/domain_errors.ts`
 * gives each its status).
 *
 * @module
 */
import { DomainError } from "@/lib/core/errors.ts";

/** Any error of memberships. */
export class MembershipError extends DomainError {}

/** Too many cards are waiting to be drawn (`card_pool.ts`): try again in `retryAfterSeconds`. */
export class MemberCardsBusyError extends MembershipError {
  override readonly kind = "unavailable";
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many member cards are being prepared; try again in ${retryAfterSeconds} second(s)`);
  }
}

/** No membership under this address or number (or no such cardholder on it). */
export class NoSuchMembershipError extends MembershipError {
  override readonly kind = "not_found";
  constructor(what = "No membership found") {
    super(what);
  }
}
