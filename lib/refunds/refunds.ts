/**
 * Refunds from the back office (issue 16): money given back on a successful gift, in full or in
 * part, with a reason, through the provider the gift was paid with, and only to the card that paid
 * it (issue 23, `refund_card.ts`: through the token it was charged with; refused, before anything
 * is recorded, where that card cannot be known).
 *
 * The order makes a refund safe to press twice and for two staff at once:
 * 1. `refunds.begin` records it `pending` under the client's idempotency key, in the same atomic
 *    step as the check that the gift's pending and succeeded refunds plus this one stay within what
 *    was paid (a second press with the same key answers the first refund; a refund that does not fit
 *    is refused, 409, with what remains);
 * 2. the provider credits the card;
 * 3. `refunds.settle` records its answer (succeeded, or failed: a failed refund counts for nothing
 *    and frees its amount) with the `refund` audit entry and, on success, the donor's `refund` email
 *    (with the credit receipt), in one atomic step.
 *
 * An unclear answer (the provider unreachable, a timeout, nonsense) is not a failure: the card may
 * have been credited. The refund stays `pending`, its amount reserved so that it can never be paid
 * twice, and the reconciliation pass asks the provider later (`refund_reconcile.ts`).
 *
 * A monthly gift's refund leaves the monthly gift running unless `cancelMonthly` is asked; then the
 * donor's monthly gifts are stopped after the refund succeeded (as the donor's own cancel does).
 *
 * @module
 */
import { DomainError } from "@/lib/core/errors.ts";
import { stopMonthlyPayments } from "@/lib/donors/mod.ts";
import { newId } from "@/lib/core/ids.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import type {
  Admin,
  AuditInput,
  MessageInput,
  Refund,
  RefundOutcome,
  RefundReason,
  Store,
  Transaction,
} from "@/lib/storage/types.ts";
import { RefundExceedsPaidError } from "@/lib/storage/refund_types.ts";
import { NoSuchTransactionError } from "@/lib/receipts/mod.ts";
import { type PaymentProvider, ProviderError } from "@/lib/providers/mod.ts";
import { refundCardOf } from "./refund_card.ts";
import { refundedTermChange } from "@/lib/memberships/mod.ts";

/** Any refund error. */
export class RefundError extends DomainError {}

/** The gift cannot be refunded here: not a successful gift with an amount, or another provider's. */
export class NotRefundableError extends RefundError {
  override readonly kind = "conflict";
}

/** The refund is larger than what remains to refund; `remaining` is in minor units. */
export class RefundTooLargeError extends RefundError {
  override readonly kind = "conflict";
  constructor(readonly remaining: number, currency: 1 | 2) {
    super(
      remaining === 0
        ? "This gift has been refunded in full: nothing remains to refund"
        : `The refund is larger than what remains to refund (${formatMoney(remaining, currency, "en-US")})`,
      [{ path: "amount", message: `at most ${remaining}` }],
    );
  }
}

/** The provider refused the refund (a decline, or a payment it cannot credit): nothing was refunded. */
export class RefundDeclinedError extends RefundError {
  override readonly kind = "conflict";
}

/**
 * The provider could not be reached or did not answer clearly: the refund stays pending, its amount
 * reserved, until the provider's answer is known.
 */
export class RefundProviderError extends RefundError {
  override readonly kind = "unavailable";
}

/** What a refund needs. */
export interface RefundInput {
  transactionId: string;
  /** Minor units, > 0. */
  amount: number;
  reason: RefundReason;
  note: string;
  /** The client's idempotency key (one per press of the button; a retry sends the same). */
  key: string;
  /** Also stop the donor's monthly gifts (asked only for a monthly gift). */
  cancelMonthly: boolean;
}

/** Who refunds, and from where (the audit entry's actor). */
export interface RefundActor {
  admin: Admin;
  address: string;
}

/** What a refund answers. */
export interface RefundAnswer {
  refund: Refund;
  /** True when the key was used before: the first refund is answered, nothing more was done. */
  repeated: boolean;
}

/** What refunds use. */
export interface RefundContext {
  store: Store;
  provider: PaymentProvider;
  now?: () => Date;
}

/** Why a gift paid through another provider than the current one is not refunded here. */
export const otherProviderMessage = (tx: Pick<Transaction, "provider">): string =>
  `This gift was paid through ${tx.provider}, not the current provider: refund it there`;

/** The gift, checked refundable by `provider`. */
async function refundable(
  ctx: RefundContext,
  id: string,
): Promise<Transaction & { amount: number; currency: 1 | 2 }> {
  const tx = await ctx.store.transactions.get(id);
  if (!tx) throw new NoSuchTransactionError();
  if (
    tx.kind !== "success" || tx.amount === null || tx.currency === null || tx.providerTransactionId === null
  ) {
    throw new NotRefundableError("Only a successful gift with an amount can be refunded");
  }
  if (tx.provider !== ctx.provider.id) throw new NotRefundableError(otherProviderMessage(tx));
  return tx as Transaction & { amount: number; currency: 1 | 2 };
}

/**
 * A refund's audit entry: who acted (`actor`: the staff member, or, for the reconciliation, who
 * asked for the refund, with no address), the refund's figures, and `changes` (its outcome).
 */
export const refundAudit = (
  actor: { id: string; email: string; address: string },
  refund: Refund,
  changes: Record<string, unknown>,
): AuditInput => ({
  action: "refund",
  actorId: actor.id,
  actorEmail: actor.email,
  address: actor.address,
  target: refund.transactionId,
  changes: {
    refundId: refund.id,
    amount: refund.amount,
    currency: refund.currency,
    reason: refund.reason,
    cancelMonthly: refund.cancelMonthly,
    ...changes,
  },
});

const auditOf = (actor: RefundActor, refund: Refund, changes: Record<string, unknown>): AuditInput =>
  refundAudit({ id: actor.admin.id, email: actor.admin.email, address: actor.address }, refund, changes);

/** The language of the gift's receipt email (the donor's), else English. */
async function languageOf(store: Store, tx: Transaction): Promise<string> {
  return (await store.outbox.get(`receipt:${tx.id}`))?.language ?? "en";
}

/** The donor's email about a refund that succeeded (its credit receipt attached when sent). */
export function refundMessage(tx: Transaction, refund: Refund, language: string): MessageInput {
  return {
    key: `refund:${refund.id}`,
    kind: "refund",
    to: { donorId: tx.donorId },
    language,
    data: { transactionId: tx.id, refundId: refund.id },
  };
}

/**
 * Refunds `input.amount` of a gift: once per key, never past what was paid, through the gift's
 * provider, audited; answers the refund as stored.
 *
 * @example
 * ```ts
 * const { refund } = await refundGift({ store, provider }, { admin, address: "203.0.113.7" }, {
 *   transactionId: "tx_1", amount: 5000, reason: "requested-by-donor", note: "", key: crypto.randomUUID(),
 *   cancelMonthly: false,
 * });
 * ```
 */
export async function refundGift(
  ctx: RefundContext,
  actor: RefundActor,
  input: RefundInput,
): Promise<RefundAnswer> {
  const now = () => (ctx.now?.() ?? new Date()).toISOString();
  const tx = await refundable(ctx, input.transactionId);
  // Only to the card that paid: refused before anything is recorded when it cannot be known.
  const card = await refundCardOf(ctx.store, ctx.provider, tx);
  if (!card.available) throw new NotRefundableError(card.message);
  let begun: { created: boolean; refund: Refund };
  try {
    begun = await ctx.store.refunds.begin({
      id: newId(),
      transactionId: tx.id,
      key: input.key,
      amount: input.amount,
      currency: tx.currency,
      reason: input.reason,
      note: input.note,
      actorId: actor.admin.id,
      actorEmail: actor.admin.email,
      cancelMonthly: tx.isMonthly && input.cancelMonthly,
      createdAt: now(),
      state: "pending",
      providerRef: null,
      error: null,
      settledAt: null,
      failureReport: null,
    }, tx.amount);
  } catch (e) {
    if (e instanceof RefundExceedsPaidError) throw new RefundTooLargeError(e.remaining, tx.currency);
    throw e;
  }
  if (!begun.created) return { refund: begun.refund, repeated: true };
  const refund = begun.refund;

  let failure: { error: string; declined: boolean } | null = null;
  let providerRef = "";
  try {
    const result = await ctx.provider.refund({
      providerRef: tx.providerTransactionId!,
      token: card.token,
      amount: refund.amount,
      currency: refund.currency,
      reference: refund.id,
    });
    if (result.statusCode === "000") providerRef = result.providerRef;
    else failure = { error: `${result.statusCode}: ${result.errorMessage ?? "refused"}`, declined: true };
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    failure = { error: e.message, declined: e.code === "refused" };
  }

  if (failure && !failure.declined) {
    // Unclear: it may have gone through. Kept pending (its amount reserved) for reconciliation.
    await ctx.store.audit.append(
      [auditOf(actor, refund, { state: "unconfirmed", error: failure.error })],
      now(),
    );
    throw new RefundProviderError(
      `The payment provider did not confirm the refund (${failure.error}). It stays pending, its amount ` +
        "reserved, until the provider's answer is known: do not refund it again in the provider's back office.",
    );
  }
  const outcome: RefundOutcome = failure
    ? { state: "failed", error: failure.error, at: now() }
    : { state: "succeeded", providerRef, at: now() };
  const settled = await recordRefundOutcome(
    ctx.store,
    tx,
    refund,
    outcome,
    auditOf(
      actor,
      refund,
      failure ? { state: "failed", error: failure.error } : { state: "succeeded", providerRef },
    ),
  );
  if (failure) {
    throw new RefundDeclinedError(
      `The payment provider refused the refund; nothing was refunded (${failure.error})`,
    );
  }
  return { refund: settled ?? (await ctx.store.refunds.get(tx.id, refund.id))!, repeated: false };
}

/**
 * Whether `refund` succeeding makes the gift refunded in full: with the refunds that succeeded
 * before it, all that was paid. (Two partial refunds of one gift settling at the same moment could
 * each miss the other; the term then stays, as for a partial refund.)
 */
async function refundsInFull(store: Store, tx: Transaction, refund: Refund): Promise<boolean> {
  const refunded = (await store.refunds.totals([tx.id])).get(tx.id)?.refunded ?? 0;
  return tx.amount !== null && refunded + refund.amount >= tx.amount;
}

/**
 * Records the provider's answer to a pending refund in one atomic step: the refund settled, its
 * audit entry and, when it went through, the donor's email with the credit receipt and, when the
 * gift is now refunded in full, the end of the membership term it paid (`refundedTermChange`); then stops the
 * donor's monthly gifts when that was asked. Answers the refund as stored, or null when it was no
 * longer pending (another pass settled it: nothing written, nothing sent).
 *
 * @example
 * ```ts
 * await recordRefundOutcome(store, tx, refund, { state: "succeeded", providerRef: "c1", at }, entry);
 * ```
 */
export async function recordRefundOutcome(
  store: Store,
  tx: Transaction,
  refund: Refund,
  outcome: RefundOutcome,
  audit: AuditInput,
): Promise<Refund | null> {
  const succeeded = outcome.state === "succeeded";
  const settled = await store.refunds.settle(tx.id, refund.id, outcome, {
    audit: [audit],
    messages: succeeded ? [refundMessage(tx, refund, await languageOf(store, tx))] : [],
    membership: succeeded && await refundsInFull(store, tx, refund) && tx.user.email
      ? refundedTermChange(tx.user.email, tx.id)
      : undefined,
  });
  if (settled && succeeded && refund.cancelMonthly) await stopMonthlyPayments(store, tx.donorId);
  return settled;
}
