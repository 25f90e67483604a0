/**
 * Completing a payment: the result asked of the provider (never taken from the browser), recorded
 * as exactly one transaction per provider payment however often the donor's return, the
 * provider's notification or a reconciliation pass (`reconcile.ts`) arrive, and then its effects
 * (the donor's dates, a monthly gift's subscription), the payment's own status last. Terminal
 * sales (`terminal_sales.ts`) record their results through the same two steps. A recorded result
 * is final: a payment recorded as declined that the provider later reports approved stays declined
 * and is logged as a discrepancy for a person (`payment_discrepancy`). A successful gift at a
 * membership level makes or renews the donor's membership in the same atomic step as its
 * transaction (`lib/memberships/`), so a payment recorded twice never extends it twice.
 *
 * @module
 */
import { newId } from "@/lib/core/ids.ts";
import type { MessageInput } from "@/lib/storage/message_types.ts";
import { recordDecline } from "@/lib/rate_limits/mod.ts";
import type { Donor, MembershipChange, Payment, Transaction } from "@/lib/storage/types.ts";
import { nextMonth } from "@/lib/monthly_gifts/mod.ts";
import { levelGiftChange, membershipMessage } from "@/lib/memberships/mod.ts";
import { lastFour } from "@/lib/shared/format.ts";

import type { ProviderResult } from "@/lib/providers/mod.ts";
import { clock, type CompletionContext, providerCall } from "./service.ts";
import { giftEffects } from "./gifts.ts";

/** How a payment ended, after verification with the provider. */
export interface Completion {
  outcome: "succeeded" | "failed" | "pending";
  payment: Payment;
  result: ProviderResult | null;
  transaction: Transaction | null;
}

/** The nonce-store key prefix of a failed payment's one re-verification ('/' is in no key id). */
const RECHECK_CLAIM = "payment-recheck/";
/**
 * A failed payment is asked about again at most once in this time (the claim's life): the
 * provider's own notification, arriving beside the donor's return, is asked about; a change the
 * provider reports later is caught by its later notification; and notifications anyone posts (the
 * route is public) or reloads of the return address cost at most one provider call per payment per
 * quarter hour.
 */
export const FAILURE_RECHECK_MS = 15 * 60 * 1000;

/**
 * A payment recorded as declined, asked about again: it stays as recorded. An approval now is a
 * discrepancy for a person (the card may have been charged for a donation the back office shows
 * as declined; a refund or a manual record is their call), logged as an error with a stable
 * `event` to alert on; never turned into a success, a subscription or a donor's payment date.
 */
function declinedAgain(
  ctx: CompletionContext,
  payment: Payment,
  recorded: Transaction,
  result: ProviderResult,
): Completion {
  if (result.statusCode === "000") {
    ctx.log.error("payment recorded as declined is reported approved by the provider; check it", {
      event: "payment_discrepancy",
      paymentId: payment.id,
      transactionId: recorded.id,
      recordedStatusCode: recorded.statusCode,
      providerStatusCode: result.statusCode,
      providerRef: payment.providerRef,
      provider: ctx.provider.id,
      amount: result.amount,
      currency: result.currency,
    });
  }
  return { outcome: "failed", payment, result, transaction: recorded };
}

/**
 * Verifies a payment with the provider and records its result once. Safe to call any number of
 * times, from the browser's return and the provider's notification alike. A recorded success is
 * answered from storage; a failed payment is asked about again at most once per
 * {@link FAILURE_RECHECK_MS},
 * and one recorded as declined stays so whatever the provider says then ({@link declinedAgain}).
 *
 * @example
 * ```ts
 * const { outcome, transaction } = await completePayment(ctx, payment);
 * ```
 */
export async function completePayment(ctx: CompletionContext, payment: Payment): Promise<Completion> {
  if (!payment.providerRef) return { outcome: "failed", payment, result: null, transaction: null };
  if (payment.status === "succeeded" && payment.transactionId) {
    // Recorded with all its effects: nothing to ask the provider (whose record of it may be gone
    // by now, and must not turn a recorded success into a failure).
    const transaction = await ctx.store.transactions.get(payment.transactionId);
    if (transaction?.kind === "success") return { outcome: "succeeded", payment, result: null, transaction };
  }
  let declined: Transaction | null = null;
  if (payment.status === "failed") {
    const recorded = payment.transactionId ? await ctx.store.transactions.get(payment.transactionId) : null;
    if (recorded?.kind === "error") declined = recorded;
    // Asked again at most once per FAILURE_RECHECK_MS, whatever asks (the claim is atomic across
    // instances); otherwise answered as recorded.
    const expiresAt = clock(ctx).getTime() + FAILURE_RECHECK_MS;
    if (!await ctx.store.nonces.claim(`${RECHECK_CLAIM}${payment.id}`, expiresAt)) {
      return { outcome: "failed", payment, result: null, transaction: recorded };
    }
  }
  const providerRef = payment.providerRef;
  const result = await providerCall(
    ctx,
    "verifyPayment",
    payment.id,
    () =>
      ctx.provider.verifyPayment(providerRef, {
        userKey: payment.userKey,
        amount: payment.amount,
        confirmationKey: payment.confirmationKey,
      }),
  );
  if (result.pending) return { outcome: "pending", payment, result, transaction: null };

  let statusCode = result.statusCode;
  let errorMessage = result.errorMessage;
  // Amount and currency recorded are the provider's, and must be the payment's.
  if (
    statusCode === "000" &&
    ((result.amount !== null && result.amount !== payment.amount) ||
      (result.currency !== null && result.currency !== payment.currency) ||
      (result.reference !== null && result.reference !== payment.id))
  ) {
    statusCode = "MISMATCH";
    errorMessage = "The amount or currency charged differs from the payment; refused";
  }
  if (statusCode === "MISMATCH") {
    ctx.log.error("payment amount or currency differs from the provider's", {
      paymentId: payment.id,
      expected: { amount: payment.amount, currency: payment.currency },
      provider: { amount: result.amount, currency: result.currency, reference: result.reference },
    });
  }
  if (declined) return declinedAgain(ctx, payment, declined, { ...result, statusCode });
  const success = statusCode === "000";
  if (payment.status === "failed") {
    // Closed as failed without a result (never started, or unknown to the provider for 7 days):
    // the provider's late answer is recorded, for a person to notice.
    ctx.log.warn("late result recorded for a payment closed as failed", {
      paymentId: payment.id,
      statusCode,
    });
  }
  const transaction = await recordResult(ctx, payment, {
    providerRef: payment.providerRef,
    statusCode,
    errorMessage,
    amount: result.amount ?? payment.amount,
    currency: result.currency ?? payment.currency,
    resultData: result.resultData,
    cardToken: success ? result.token : null,
  });
  const finished = await finishPayment(ctx, payment, success, transaction, success ? result.token : null);
  return {
    outcome: success ? "succeeded" : "failed",
    payment: finished,
    result: { ...result, statusCode },
    transaction,
  };
}

/**
 * The messages a payment's transaction `transactionId` causes, enqueued with it: a success's
 * receipt, and for a monthly gift's first payment the welcome with its manage link (its
 * subscription is `sub_${payment.id}`, created right after); a decline, none. In the payment's
 * language.
 */
export function paymentMessages(payment: Payment, transactionId: string, success: boolean): MessageInput[] {
  if (!success) return [];
  const to = { donorId: payment.donorId };
  const messages: MessageInput[] = [
    {
      key: `receipt:${transactionId}`,
      kind: "receipt",
      to,
      language: payment.language,
      data: { transactionId },
    },
  ];
  if (payment.isMonthly) {
    const subscriptionId = `sub_${payment.id}`;
    messages.push({
      key: `welcome:${subscriptionId}`,
      kind: "monthly-welcome",
      to,
      language: payment.language,
      data: { subscriptionId },
    });
  }
  return messages;
}

/**
 * The membership change of a successful gift at a level (`payment.levelId`), for the donor's address;
 * undefined for any other gift, a decline, or a donor record without an address (erased).
 */
async function paymentMembership(
  ctx: CompletionContext,
  payment: Payment,
  donor: Donor | null,
  transaction:
    & Pick<Transaction, "id" | "createdAt" | "statusCode" | "amount" | "currency" | "resultData">
    & { cardToken: string | null },
): Promise<MembershipChange | undefined> {
  if (transaction.statusCode !== "000" || payment.levelId === undefined || !donor?.email || donor.erasedAt) {
    return undefined;
  }
  return await levelGiftChange({ store: ctx.store, graceDays: ctx.membershipGraceDays }, donor.email, {
    donorId: payment.donorId,
    levelId: payment.levelId,
    paidAt: transaction.createdAt,
    transactionId: transaction.id,
    amount: transaction.amount ?? payment.amount,
    currency: transaction.currency ?? payment.currency,
    // A monthly gift's subscription is made from its first payment, with this id (finishPayment).
    subscriptionId: payment.isMonthly ? `sub_${payment.id}` : null,
    // The donor's consent keeps this payment's card with the membership; without it, nothing is kept.
    ...(payment.autoRenew && transaction.cardToken
      ? {
        autoRenew: {
          token: transaction.cardToken,
          provider: payment.provider,
          last4: lastFour(transaction.resultData?.CreditCardNumber),
          currency: transaction.currency ?? payment.currency,
          transactionId: transaction.id,
          since: transaction.createdAt,
          failedAttempts: 0,
          retryAt: null,
        },
      }
      : {}),
  });
}

/**
 * Records the result of a payment as its transaction, once per provider transaction id: a repeat
 * answers the transaction already recorded. Its messages ({@link paymentMessages}) and, for a gift
 * at a level, its membership change are written in the same atomic step, only when the transaction
 * is new.
 *
 * @example
 * ```ts
 * const transaction = await recordResult(ctx, payment, {
 *   providerRef, statusCode: "000", errorMessage: null, amount, currency, resultData, cardToken: null,
 * });
 * ```
 */
export async function recordResult(
  ctx: CompletionContext,
  payment: Payment,
  fields: Pick<Transaction, "statusCode" | "errorMessage" | "amount" | "currency" | "resultData"> & {
    providerRef: string;
    /** The card token the payment was charged with (a monthly gift's page makes one), or null. */
    cardToken: string | null;
  },
): Promise<Transaction> {
  const donor = await ctx.store.donors.get(payment.donorId);
  const id = newId();
  const createdAt = clock(ctx).toISOString();
  const success = fields.statusCode === "000";
  // A gift membership (issue 28) is the recipient's; any other gift at a level, the donor's.
  const gift = success && payment.gift && payment.levelId !== undefined
    ? await giftEffects(ctx, { ...payment, gift: payment.gift, levelId: payment.levelId }, {
      id,
      createdAt,
      amount: fields.amount ?? payment.amount,
      currency: fields.currency ?? payment.currency,
    })
    : undefined;
  const membership = payment.gift
    ? gift?.membership
    : await paymentMembership(ctx, payment, donor, { id, createdAt, ...fields });
  const { created, transaction } = await ctx.store.transactions.record({
    id,
    kind: fields.statusCode === "000" ? "success" : "error",
    statusCode: fields.statusCode,
    isMonthly: payment.isMonthly,
    createdAt,
    donorId: payment.donorId,
    user: {
      firstName: donor?.firstName ?? "",
      lastName: donor?.lastName ?? "",
      email: donor?.email ?? "",
    },
    amount: fields.amount,
    currency: fields.currency,
    resultData: fields.statusCode === "000" ? fields.resultData : null,
    errorMessage: fields.statusCode === "000" ? null : fields.errorMessage,
    provider: ctx.provider.id,
    providerTransactionId: fields.providerRef,
    // What a refund credits through, and only it (issue 23).
    cardToken: fields.cardToken ?? undefined,
  }, {
    messages: [
      ...paymentMessages(payment, id, success),
      // Its membership email, decided when sent from the term this transaction made.
      ...(gift?.messages ??
        (membership
          ? [membershipMessage({ donorId: payment.donorId }, payment.language, membership.email, id)]
          : [])),
    ],
    membership,
  });
  if (created && transaction.kind === "error" && payment.channel === "online" && ctx.rateLimits) {
    // Counted once, with the transaction: against the donor's email and the payment's origin.
    await recordDecline(ctx.store, ctx.rateLimits, { paymentId: payment.id, email: donor?.email ?? "" });
  }
  if (created) {
    ctx.log.info("transaction recorded", {
      paymentId: payment.id,
      transactionId: transaction.id,
      statusCode: transaction.statusCode,
      channel: payment.channel,
    });
  }
  return transaction;
}

/**
 * The effects of a finished payment; each is idempotent, so repeats change nothing. The payment's
 * own status comes last: a payment marked finished has all its effects, and one an interruption
 * (storage gone midway) left pending is finished by the next return, notification or repeated
 * kiosk request, instead of that repeat starting (and charging) a new one.
 *
 * @example
 * ```ts
 * const finished = await finishPayment(ctx, payment, true, transaction, result.token);
 * ```
 */
export async function finishPayment(
  ctx: CompletionContext,
  payment: Payment,
  success: boolean,
  transaction: Transaction,
  token: string | null,
): Promise<Payment> {
  if (success) {
    const paidAt = transaction.createdAt;
    if (payment.isMonthly && token) {
      const next = nextMonth(paidAt, paidAt);
      await ctx.store.subscriptions.create({
        // One subscription per payment, whatever path records it first.
        id: `sub_${payment.id}`,
        donorId: payment.donorId,
        amount: payment.amount,
        currency: payment.currency,
        provider: payment.provider,
        token,
        cardMasked: transaction.resultData?.CreditCardNumber ?? null,
        language: payment.language,
        status: "active",
        createdAt: paidAt,
        paymentDate: paidAt,
        nextPaymentDate: next,
        failedAttempts: 0,
        retryAt: null,
        cancelledAt: null,
      });
      await ctx.store.donors.update(payment.donorId, {
        paymentDate: paidAt,
        nextPaymentDate: next,
        monthlyPaymentAvailable: true,
      });
    } else {
      await ctx.store.donors.update(payment.donorId, { paymentDate: paidAt });
    }
  }
  const updated = await ctx.store.payments.update(payment.id, {
    status: success ? "succeeded" : "failed",
    transactionId: transaction.id,
    updatedAt: clock(ctx).toISOString(),
  });
  return updated ?? payment;
}
