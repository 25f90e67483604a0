/**
 * What a refund does to a membership (issue 27): a payment refunded in full no longer pays for the
 * term it bought, so that term ends, in the refund's own settlement (`refunds.settle`'s
 * `{ membership }`), on both backends:
 * - a one-time gift's term is taken out, and the terms after it (renewals chained from its end)
 *   move back by its length: a refunded renewal moves the membership's end back by one term;
 * - a monthly gift's latest charge takes one month off its term (its earlier charges are not named
 *   by the term, which keeps only the latest charge's transaction: their refunds change nothing);
 * - when no term is left (the join of a one-term membership), the membership ends: the store
 *   deletes it, its number with it, so it is not active, not in grace, and gone from every list.
 *   A lapsed member who rejoined and was refunded keeps the older terms, lapsed.
 * A partial refund keeps the term: the member paid for part of it, and staff refund the rest to end
 * it. Pure, as storage asks: the store may ask again after a lost race.
 *
 * @module
 */
import type { MembershipChange, MembershipTerm } from "@/lib/storage/types.ts";
import { addMonths } from "./terms.ts";

/** `term` moved `ms` earlier. */
const earlier = (term: MembershipTerm, ms: number): MembershipTerm => ({
  ...term,
  start: new Date(Date.parse(term.start) - ms).toISOString(),
  end: new Date(Date.parse(term.end) - ms).toISOString(),
});

/**
 * The change a full refund of transaction `transactionId` makes to the membership of `email`: the
 * term it paid ends (see the module header); nothing when no term names it.
 *
 * @example
 * ```ts
 * await store.refunds.settle(tx.id, refund.id, outcome, { audit, membership: refundedTermChange(email, tx.id) });
 * ```
 */
export function refundedTermChange(email: string, transactionId: string): MembershipChange {
  return {
    email,
    apply(current) {
      const i = current?.terms.findIndex((t) => t.transactionId === transactionId) ?? -1;
      if (!current || i < 0) return null;
      const term = current.terms[i];
      const kept = term.charges > 1
        ? { ...term, end: addMonths(term.start, term.charges - 1), charges: term.charges - 1 }
        : null;
      const removed = Date.parse(term.end) - Date.parse(kept?.end ?? term.start);
      const terms = [
        ...current.terms.slice(0, i),
        ...(kept ? [kept] : []),
        ...current.terms.slice(i + 1).map((t) => earlier(t, removed)),
      ];
      return {
        number: current.number,
        donorId: current.donorId,
        subscriptionId: current.subscriptionId,
        terms,
      };
    },
  };
}
