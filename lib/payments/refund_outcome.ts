/**
 * A person's answer to a pending refund (issue 16): where the provider cannot be asked (Pelecard
 * documents no call to look a refund up), a refund whose answer was lost stays pending, its amount
 * reserved, until someone from finance checks the provider's back office and records what it
 * shows here: credited (the donor's email with the credit receipt goes out then) or not (its
 * amount is free again).
 *
 * Only a refund pending for longer than the reconciliation's grace period may be answered so (one
 * younger may still have its request on the way, and the provider's own answer wins), and only
 * once: the answer is one conditional write with its audit entry (`recordRefundOutcome`), so two
 * people answering at once, or a person and the reconciliation pass, record one outcome.
 *
 * @module
 */
import type { Actor } from "../auth/actor.ts";
import { NoSuchTransactionError } from "../receipts/errors.ts";
import type { Refund, RefundOutcome, Store } from "../storage/types.ts";
import { REFUND_RECONCILE_GRACE_MS } from "./refund_reconcile.ts";
import { recordRefundOutcome, refundAudit, RefundError } from "./refunds.ts";

/** No refund with this id on this gift. */
export class NoSuchRefundError extends RefundError {
  constructor() {
    super("No refund with this id on this gift");
  }
}

/** The refund is no longer pending: its outcome is recorded already. */
export class RefundSettledError extends RefundError {
  constructor(state: Refund["state"]) {
    super(
      `This refund is no longer pending: it ${state === "succeeded" ? "went through" : "failed"} already`,
    );
  }
}

/** The refund is younger than the grace period: its provider's answer may still come. */
export class RefundTooRecentError extends RefundError {
  constructor(readonly from: string) {
    super(`This refund may still get the provider's own answer: record one from ${from} on`, [
      { path: "refundId", message: "too recent" },
    ]);
  }
}

/** What a person records. */
export interface RefundOutcomeInput {
  transactionId: string;
  refundId: string;
  outcome: "succeeded" | "failed";
  /** The credit's id in the provider's back office, when it went through. */
  providerRef?: string;
}

/**
 * Records what the provider's back office shows for a pending refund; answers the refund as
 * stored.
 *
 * @example
 * ```ts
 * await recordRefundOutcomeByStaff(store, actor, { transactionId, refundId, outcome: "succeeded" });
 * ```
 */
export async function recordRefundOutcomeByStaff(
  store: Store,
  actor: Actor,
  input: RefundOutcomeInput,
  now: Date = new Date(),
): Promise<Refund> {
  const [tx, refund] = await Promise.all([
    store.transactions.get(input.transactionId),
    store.refunds.get(input.transactionId, input.refundId),
  ]);
  if (!tx) throw new NoSuchTransactionError();
  if (!refund) throw new NoSuchRefundError();
  if (refund.state !== "pending") throw new RefundSettledError(refund.state);
  const from = Date.parse(refund.createdAt) + REFUND_RECONCILE_GRACE_MS;
  if (now.getTime() < from) throw new RefundTooRecentError(new Date(from).toISOString());
  const at = now.toISOString();
  const outcome: RefundOutcome = input.outcome === "succeeded"
    ? { state: "succeeded", providerRef: input.providerRef ?? "recorded by staff", at }
    : { state: "failed", error: "Not credited, as the provider's back office shows (recorded by staff)", at };
  const who = { id: actor.admin.id, email: actor.admin.email, address: actor.address };
  const settled = await recordRefundOutcome(
    store,
    tx,
    refund,
    outcome,
    refundAudit(who, refund, {
      state: outcome.state,
      recordedByStaff: true,
      ...(outcome.state === "succeeded" ? { providerRef: outcome.providerRef } : {}),
    }),
  );
  if (!settled) {
    // Answered meanwhile (another person, or the reconciliation): that outcome stands.
    throw new RefundSettledError((await store.refunds.get(tx.id, refund.id))!.state);
  }
  return settled;
}
