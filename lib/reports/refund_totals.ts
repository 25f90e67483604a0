/**
 * Where the monthly report gets its refunds: the one place to connect the refunds' storage.
 *
 * Refunds (issue 16, item 3) are built on their own branch; until they are merged, this answers
 * none, so the report's refunds are zero and its net equals its donations. Merging them means
 * replacing the body of {@link refundTotalsFor} with a read of the refunds made in each period
 * (`bounds[i] <= refundedAt < bounds[i + 1]`), summed per currency and kind of the refunded gift,
 * at a cost in proportion to those refunds; nothing else changes.
 *
 * @module
 */
import type { Store } from "../storage/types.ts";
import type { RefundTotals } from "./monthly.ts";

/** Refund totals that answer none. */
export const NO_REFUNDS: RefundTotals = { figures: () => Promise.resolve([]) };

/** The refund totals of `store` (none until the refunds' storage is connected here). */
export function refundTotalsFor(_store: Store): RefundTotals {
  return NO_REFUNDS;
}
