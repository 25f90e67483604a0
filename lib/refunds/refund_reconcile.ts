/**
 * Reconciliation of refunds (issue 16): a refund whose provider answer never reached storage (the
 * provider unreachable or unclear, an instance stopped midway) stays `pending`, its amount reserved
 * so that it can never be paid twice. Left so, the donor would get no email, the report would miss
 * the money, and the amount would stay reserved.
 *
 * A pass (with the payments' reconciliation, every 15 minutes) asks the provider about each refund
 * pending for longer than {@link REFUND_RECONCILE_GRACE_MS}, by the reference it was sent with (the
 * refund's id: `lookupCharge`), and records the answer as the refund itself would have
 * ({@link recordRefundOutcome}: its audit entry, and on success the donor's email, once):
 * - credited ("000"): succeeded;
 * - refused (another code): failed, its amount free again;
 * - unknown to the provider: the request never reached it. Only after
 *   {@link REFUND_RECONCILE_CUTOFF_MS} is it closed as failed (a request still on its way is not
 *   raced); until then it is asked again.
 *
 * A provider that cannot look a charge up (Pelecard documents no such call) leaves the refund
 * pending, and the pass logs it for a person to check in the provider's back office. A provider
 * that cannot be reached leaves it for the next pass (`pass.ts`, the passes' one shape).
 *
 * @module
 */
import type { Logger } from "@/lib/core/log.ts";
import type { AuditInput, Refund, RefundOutcome, Store } from "@/lib/storage/types.ts";
import { runPass } from "@/lib/providers/mod.ts";
import type { PaymentProvider } from "@/lib/providers/mod.ts";
import { recordRefundOutcome, refundAudit } from "./refunds.ts";

const MINUTE_MS = 60_000;

/** A refund younger than this may still have its request on the way to the provider. */
export const REFUND_RECONCILE_GRACE_MS = 15 * MINUTE_MS;

/** A refund the provider still does not know this long after it was asked never reached it. */
export const REFUND_RECONCILE_CUTOFF_MS = 2 * 60 * MINUTE_MS;

/** The most refunds one pass looks at (the rest wait for the next pass, oldest first). */
const PASS_LIMIT = 200;

/** What a pass needs. */
export interface RefundReconcileContext {
  store: Store;
  provider: PaymentProvider;
  log: Logger;
  now?: () => Date;
}

/** What a pass did. */
export interface RefundReconcileReport {
  /** Credited by the provider: recorded as succeeded, the donor's email queued. */
  succeeded: number;
  /** Refused by the provider, or never reached it: recorded as failed. */
  failed: number;
  /** Asked again next pass (not yet known, or the provider unreachable), or left for a person. */
  pending: number;
}

/** The audit entry of a refund settled by the pass: in the name of who asked for it. */
const entryOf = (refund: Refund, changes: Record<string, unknown>): AuditInput =>
  refundAudit({ id: refund.actorId, email: refund.actorEmail, address: "" }, refund, {
    reconciled: true,
    ...changes,
  });

/** What the provider says about one refund: its outcome, or null while it cannot be known yet. */
async function askProvider(
  ctx: RefundReconcileContext,
  refund: Refund,
  now: Date,
): Promise<RefundOutcome | null> {
  const at = now.toISOString();
  const result = await ctx.provider.lookupCharge!(refund.id);
  if (result === null) {
    const age = now.getTime() - Date.parse(refund.createdAt);
    return age >= REFUND_RECONCILE_CUTOFF_MS
      ? { state: "failed", error: "The refund never reached the payment provider", at }
      : null;
  }
  if (result.statusCode === "000") return { state: "succeeded", providerRef: result.providerRef, at };
  return { state: "failed", error: `${result.statusCode}: ${result.errorMessage ?? "refused"}`, at };
}

/**
 * One pass over the refunds pending for longer than the grace period (`pass.ts`'s shape).
 *
 * @example
 * ```ts
 * const report = await reconcileRefunds({ store, provider, log });
 * ```
 */
export async function reconcileRefunds(ctx: RefundReconcileContext): Promise<RefundReconcileReport> {
  const now = ctx.now?.() ?? new Date();
  const before = new Date(now.getTime() - REFUND_RECONCILE_GRACE_MS).toISOString();
  const { counts } = await runPass({
    name: "refunds reconciled",
    log: ctx.log,
    outcomes: ["succeeded", "failed", "pending", "settled"],
    unreachable: "pending",
    items: await ctx.store.refunds.listPending(before, PASS_LIMIT),
    describe: (refund) => ({ refundId: refund.id, transactionId: refund.transactionId }),
    each: (refund) => reconcileOne(ctx, refund, now),
  });
  return { succeeded: counts.succeeded, failed: counts.failed, pending: counts.pending };
}

/** What became of one pending refund. */
async function reconcileOne(
  ctx: RefundReconcileContext,
  refund: Refund,
  now: Date,
): Promise<keyof RefundReconcileReport | "settled"> {
  const tx = await ctx.store.transactions.get(refund.transactionId);
  if (!tx || tx.provider !== ctx.provider.id || !ctx.provider.lookupCharge) {
    ctx.log.warn("refund pending: check it in the payment provider's back office", {
      refundId: refund.id,
      transactionId: refund.transactionId,
      provider: tx?.provider ?? null,
    });
    return "pending";
  }
  const outcome = await askProvider(ctx, refund, now);
  if (outcome === null) return "pending";
  const changes = outcome.state === "succeeded"
    ? { state: "succeeded", providerRef: outcome.providerRef }
    : { state: "failed", error: outcome.error };
  const settled = await recordRefundOutcome(ctx.store, tx, refund, outcome, entryOf(refund, changes));
  // Settled meanwhile by a person or another pass: that outcome stands, not counted here.
  return settled ? outcome.state : "settled";
}
