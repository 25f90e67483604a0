/**
 * A donor's membership as the portal, the back office and the front desk will show it: the record,
 * its state now (its monthly gift's billing read with it), its level now, until when it is valid and
 * until when its grace lasts.
 *
 * @module
 */
import type { MembershipState } from "@/lib/shared/memberships.ts";
import type { Membership } from "@/lib/storage/types.ts";
import { DEFAULT_GRACE_DAYS } from "./config.ts";
import type { MembershipContext } from "./changes.ts";
import { levelAt, membershipState } from "./state.ts";
import { lapsesAt } from "./terms.ts";

/** A membership at a moment. */
export interface MembershipView {
  membership: Membership;
  state: MembershipState;
  /** The level it is at now. */
  levelId: number;
  /** The end of its paid terms (a card's "valid until"). */
  validUntil: string;
  /** When it lapses unless renewed (or its monthly gift's charge goes through). */
  graceUntil: string;
}

/**
 * The membership of `email` at `now`, or null when the address has none.
 *
 * @example
 * ```ts
 * const view = await readMembership({ store, graceDays: 30 }, "dana@museum.org", new Date());
 * view?.state; // "active"
 * ```
 */
export async function readMembership(
  ctx: MembershipContext,
  email: string,
  now: Date,
): Promise<MembershipView | null> {
  const membership = await ctx.store.memberships.get(email);
  if (!membership) return null;
  const graceDays = ctx.graceDays ?? DEFAULT_GRACE_DAYS;
  const billing = membership.subscriptionId
    ? await ctx.store.subscriptions.get(membership.subscriptionId)
    : null;
  return {
    membership,
    state: membershipState(membership, now, billing, graceDays),
    levelId: levelAt(membership, now),
    validUntil: membership.end,
    graceUntil: lapsesAt(membership.end, graceDays),
  };
}
