/**
 * A membership's state at a moment, worked out from its dates and its monthly gift's billing, never
 * stored (so it is right at any time without a job to move it):
 * - **active** until its end;
 * - then, while the monthly gift that paid its last term is being retried after a declined charge,
 *   **grace** until billing's retries end, and **lapsed** once they have (the gift failed) or once
 *   the gift was cancelled (a cancelled gift's membership lasts to the end of its paid period);
 * - otherwise (a one-time gift's term, or a monthly charge not yet made) **grace** for the grace
 *   days after its end (30 by default), then **lapsed**.
 *
 * @module
 */
import type { MembershipState } from "@/lib/shared/memberships.ts";
import type { Membership, Subscription } from "@/lib/storage/types.ts";
import { lapsesAt, termAt } from "./terms.ts";

/** What the state reads of the monthly gift: its status and its failed attempts this period. */
export type Billing = Pick<Subscription, "id" | "status" | "failedAttempts">;

/**
 * The state of `membership` at `now`, given the monthly gift it names (`billing`, or null).
 *
 * @example
 * ```ts
 * membershipState(membership, new Date(), subscription, 30); // "active"
 * ```
 */
export function membershipState(
  membership: Membership,
  now: Date,
  billing: Billing | null,
  graceDays: number,
): MembershipState {
  const at = now.toISOString();
  if (at < membership.end) return "active";
  const paidMonthly = billing !== null && billing.id === membership.subscriptionId &&
    membership.terms.at(-1)?.subscriptionId === billing.id;
  if (paidMonthly && billing.status !== "active") return "lapsed";
  if (paidMonthly && billing.failedAttempts > 0) return "grace";
  return at < lapsesAt(membership.end, graceDays) ? "grace" : "lapsed";
}

/**
 * The level a membership is at, at `now`: its term's then (a downgrade bought early takes over
 * when its term begins), else its last term's.
 *
 * @example
 * ```ts
 * levelAt(membership, new Date()); // 2
 * ```
 */
export function levelAt(membership: Membership, now: Date): number {
  return termAt(membership.terms, now.toISOString())!.levelId;
}
