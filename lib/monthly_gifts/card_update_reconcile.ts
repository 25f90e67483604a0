/**
 * Reconciliation of card updates (issue 15): a new card the provider confirmed, of which neither the
 * donor's return nor the provider's notification reached us (the app down at that moment, the tab
 * closed), would otherwise never be put on the gift, and its next charge would go to the old card.
 *
 * A pass (beside the payments' reconciliation, every 15 minutes) asks the provider about each open
 * attempt older than {@link CARD_RECONCILE_GRACE_MS} through the same verification as the return
 * ({@link completeCardUpdate}: the result is the provider's, the token applied once with its email).
 * An attempt still open {@link CARD_RECONCILE_CUTOFF_MS} after it was created was abandoned on the
 * provider's page (whose session ended long before): it is asked one last time, then closed as
 * failed, the old card kept. A provider that cannot be reached leaves the attempt for the next pass
 * (`pass.ts`, the passes' one shape).
 *
 * @module
 */
import type { RateLimitSettings } from "@/lib/rate_limits/mod.ts";
import type { Logger } from "@/lib/core/log.ts";
import type { CardUpdate, Store } from "@/lib/storage/types.ts";
import { completeCardUpdate } from "./card_update.ts";
import { runPass } from "@/lib/providers/mod.ts";
import type { PaymentProvider } from "@/lib/providers/mod.ts";

const MINUTE_MS = 60_000;

/** An attempt younger than this may still have its donor on the provider's page. */
export const CARD_RECONCILE_GRACE_MS = 15 * MINUTE_MS;

/** An attempt still open this long after it began was abandoned: closed as failed after a last question. */
export const CARD_RECONCILE_CUTOFF_MS = 2 * 60 * MINUTE_MS;

/** The most attempts one pass looks at (the rest wait for the next pass, oldest first). */
const PASS_LIMIT = 200;

/** What a pass needs. */
export interface CardReconcileContext {
  store: Store;
  provider: PaymentProvider;
  log: Logger;
  /** The decline caps a decline found here counts in, as one the return finds does. */
  rateLimits?: RateLimitSettings;
  now?: () => Date;
}

/** What a pass did. */
export interface CardReconcileReport {
  /** New cards put on their gifts (or found put there by a return meanwhile). */
  applied: number;
  /** Declined, cancelled, or for a gift that ended: the old card kept. */
  declined: number;
  /** Still open at the provider, or the provider unreachable: asked again next pass. */
  pending: number;
  /** Abandoned past the cutoff: closed as failed. */
  abandoned: number;
}

/**
 * One pass over the open card updates older than the grace period (`pass.ts`'s shape).
 *
 * @example
 * ```ts
 * const report = await reconcileCardUpdates({ store, provider, log });
 * ```
 */
export async function reconcileCardUpdates(ctx: CardReconcileContext): Promise<CardReconcileReport> {
  const now = ctx.now?.() ?? new Date();
  const open = await ctx.store.cardUpdates.listOpen(
    new Date(now.getTime() - CARD_RECONCILE_GRACE_MS).toISOString(),
    PASS_LIMIT,
  );
  const { counts } = await runPass({
    name: "card updates reconciled",
    log: ctx.log,
    outcomes: ["applied", "declined", "pending", "abandoned"],
    unreachable: "pending",
    items: open,
    describe: (attempt) => ({ attemptId: attempt.id }),
    each: (attempt) => reconcileOne(ctx, attempt, now),
  });
  return counts;
}

/** What became of one open attempt. */
async function reconcileOne(
  ctx: CardReconcileContext,
  attempt: CardUpdate,
  now: Date,
): Promise<keyof CardReconcileReport> {
  const { outcome } = await completeCardUpdate({ ...ctx, now: () => now }, attempt);
  if (outcome === "applied") return "applied";
  if (outcome !== "pending") return "declined";
  if (now.getTime() - Date.parse(attempt.createdAt) < CARD_RECONCILE_CUTOFF_MS) return "pending";
  await ctx.store.cardUpdates.finish(attempt.id, "failed", null, now.toISOString());
  return "abandoned";
}
