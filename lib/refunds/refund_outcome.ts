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
 * "It did not go through" frees the refund's amount for another refund, so one person's word is
 * not enough (issue 23): a refund that did go through, recorded as failed, would be paid twice.
 * The first "did not go through" is a report (`refunds.reportFailure`, audited as
 * `failure-reported`): the refund stays pending, its amount reserved. It is recorded failed only
 * when an owner, another person than who reported it, says the same (audited with both people);
 * the reporter, a second finance or admin member, or the same owner again are refused (409). "It
 * went through" needs one person: it frees nothing, and it is what a person would correct a report
 * with. The reconciliation's own answer from the provider settles a reported refund as any other.
 *
 * @module
 */
import type { Actor } from "@/lib/audit/mod.ts";
import { NoSuchTransactionError } from "@/lib/receipts/mod.ts";
import type { Admin, FailureReport, Refund, RefundOutcome, Store } from "@/lib/storage/types.ts";
import { REFUND_RECONCILE_GRACE_MS } from "./refund_reconcile.ts";
import { recordRefundOutcome, refundAudit, RefundError } from "./refunds.ts";

/** No refund with this id on this gift. */
export class NoSuchRefundError extends RefundError {
  override readonly kind = "not_found";
  constructor() {
    super("No refund with this id on this gift");
  }
}

/** The refund is no longer pending: its outcome is recorded already. */
export class RefundSettledError extends RefundError {
  override readonly kind = "conflict";
  constructor(state: Refund["state"]) {
    super(
      `This refund is no longer pending: it ${state === "succeeded" ? "went through" : "failed"} already`,
    );
  }
}

/** The refund is younger than the grace period: its provider's answer may still come. */
export class RefundTooRecentError extends RefundError {
  override readonly kind = "conflict";
  constructor(readonly from: string) {
    super(`This refund may still get the provider's own answer: record one from ${from} on`, [
      { path: "refundId", message: "too recent" },
    ]);
  }
}

/** "Did not go through" is reported already, and this person may not confirm it (not another owner). */
export class FailureConfirmationError extends RefundError {
  override readonly kind = "conflict";
  constructor(reportedBy: string) {
    super(
      `${reportedBy} recorded that this refund did not go through: an owner other than the one who ` +
        "recorded it must confirm it before its amount is free again",
      [{ path: "refundId", message: "awaiting confirmation" }],
    );
  }
}

/** Whether `admin` may confirm `report` (that a refund did not go through): an owner, another person. */
export const mayConfirmFailure = (admin: Pick<Admin, "id" | "role">, report: FailureReport | null): boolean =>
  report !== null && admin.role === "owner" && admin.id !== report.actorId;

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
 * stored, and whether it is settled (false: a failure reported, awaiting an owner's confirmation).
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
): Promise<{ refund: Refund; settled: boolean }> {
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
  const who = { id: actor.admin.id, email: actor.admin.email, address: actor.address };
  const report = refund.failureReport ?? null;
  if (input.outcome === "failed" && !mayConfirmFailure(actor.admin, report)) {
    if (report !== null) throw new FailureConfirmationError(report.actorEmail);
    return { refund: await reportFailure(store, refund, who, at), settled: false };
  }
  const outcome: RefundOutcome = input.outcome === "succeeded"
    ? { state: "succeeded", providerRef: input.providerRef ?? "recorded by staff", at }
    : { state: "failed", error: "Not credited, as the provider's back office shows (recorded by staff)", at };
  const settled = await recordRefundOutcome(
    store,
    tx,
    refund,
    outcome,
    refundAudit(who, refund, {
      state: outcome.state,
      recordedByStaff: true,
      ...(outcome.state === "succeeded" ? { providerRef: outcome.providerRef } : {}),
      ...(report ? { reportedBy: report.actorEmail, reportedAt: report.at } : {}),
    }),
  );
  if (!settled) {
    // Answered meanwhile (another person, or the reconciliation): that outcome stands.
    throw new RefundSettledError((await store.refunds.get(tx.id, refund.id))!.state);
  }
  return { refund: settled, settled: true };
}

/** The first "did not go through": recorded with its audit entry; the refund stays pending. */
async function reportFailure(
  store: Store,
  refund: Refund,
  who: { id: string; email: string; address: string },
  at: string,
): Promise<Refund> {
  const reported = await store.refunds.reportFailure(
    refund.transactionId,
    refund.id,
    { actorId: who.id, actorEmail: who.email, at },
    { audit: [refundAudit(who, refund, { state: "failure-reported", recordedByStaff: true })] },
  );
  if (reported) return reported;
  // Settled or reported meanwhile (another person, or the reconciliation).
  const now = (await store.refunds.get(refund.transactionId, refund.id))!;
  if (now.state !== "pending") throw new RefundSettledError(now.state);
  throw new FailureConfirmationError(now.failureReport!.actorEmail);
}
