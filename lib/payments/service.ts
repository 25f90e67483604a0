/**
 * Taking donations: the payment calls of spec section 7 on top of a {@link PaymentProvider}.
 *
 * - `createOnlinePayment` records a pending payment and answers the provider's hosted page; a
 *   repeated identical request within a minute answers the same payment.
 * - `completePayment` asks the provider for the result (never the browser), then records exactly
 *   one transaction per provider payment, however often the return and the notification arrive.
 *   A monthly payment that succeeded starts a subscription with the provider's card token.
 * - `terminalPayment` runs a sale on the kiosk's terminal and records its result.
 *
 * @module
 */
import { HttpError } from "../http/validation.ts";
import { newId } from "../ids.ts";
import type { Lang } from "../shared/languages.ts";
import type { Logger } from "../log.ts";
import { type CurrencyCode, MIN_AMOUNT, toMinor } from "../shared/money.ts";
import type { Donor, Payment, Store, Transaction } from "../storage/types.ts";
import { nextMonth } from "./billing_dates.ts";
import { type PaymentProvider, ProviderError, type ProviderResult, type TerminalResult } from "./provider.ts";

/** A repeated identical create within this window answers the same payment. */
export const DEDUPE_WINDOW_MS = 60_000;

/** What the payment functions need. */
export interface PaymentsContext {
  store: Store;
  provider: PaymentProvider;
  log: Logger;
  /** Our public origin, for the provider's return and notification addresses. */
  origin: string;
  maxAmount: number;
  monthlyEnabled: boolean;
  now?: () => Date;
}

/**
 * What verifying and recording a finished payment needs ({@link completePayment}): no limits or
 * origin, so a background pass (`reconcile.ts`) records exactly as the return route does.
 */
export type CompletionContext = Pick<PaymentsContext, "store" | "provider" | "log" | "now">;

const clock = (ctx: CompletionContext) => ctx.now?.() ?? new Date();

/** Runs one provider call with a log line (carrying the request id of `ctx.log`): name, time, outcome. */
async function providerCall<T>(
  ctx: CompletionContext,
  call: string,
  paymentId: string,
  fn: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  let outcome = "ok";
  try {
    return await fn();
  } catch (e) {
    outcome = e instanceof ProviderError ? `provider-error:${e.code}` : "error";
    throw e;
  } finally {
    ctx.log.info("provider call", {
      provider: ctx.provider.id,
      call,
      paymentId,
      outcome,
      ms: Math.round(performance.now() - started),
    });
  }
}

/** The amount and donor checks every payment call shares. */
async function prepare(
  ctx: PaymentsContext,
  input: { amount: number; userId: string; isMonthly: boolean },
): Promise<{ donor: Donor; minor: number }> {
  if (input.isMonthly && !ctx.monthlyEnabled) {
    throw new HttpError(400, "Monthly donations are not available at the moment", [{
      path: "isMonthly",
      message: "monthly donations are switched off",
    }]);
  }
  if (input.amount < MIN_AMOUNT) {
    throw new HttpError(400, `The amount must be at least ${MIN_AMOUNT}`, [{
      path: "amount",
      message: "too small",
    }]);
  }
  if (input.amount > ctx.maxAmount) {
    throw new HttpError(400, `The amount must be at most ${ctx.maxAmount}`, [{
      path: "amount",
      message: "too large",
    }]);
  }
  const minor = toMinor(input.amount);
  if (minor === null) {
    throw new HttpError(400, "The amount must have at most two decimals", [{
      path: "amount",
      message: "not money",
    }]);
  }
  const donor = await ctx.store.donors.get(input.userId);
  if (!donor) throw new HttpError(404, "No donor with this userId");
  return { donor, minor };
}

/**
 * A payment still without its page this long after it was created has no request starting it
 * any more (that request failed, e.g. storage went away after creating it, or its process died):
 * longer than the provider may take to start one (Pelecard's calls time out after 15 s).
 */
export const ABANDONED_START_MS = 20_000;

/**
 * Waits for a concurrent identical request to finish starting its payment: until it has its page
 * or another status, or it is {@link ABANDONED_START_MS} old (15 s of waiting at most).
 */
async function waitForPage(ctx: PaymentsContext, id: string): Promise<Payment> {
  const until = Date.now() + 15_000;
  for (;;) {
    const payment = await ctx.store.payments.get(id);
    if (!payment || payment.pageUrl || payment.status !== "pending") return payment!;
    if (Date.now() > until || abandoned(ctx, payment)) return payment;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const abandoned = (ctx: PaymentsContext, payment: Payment) =>
  clock(ctx).getTime() - Date.parse(payment.createdAt) >= ABANDONED_START_MS;

/**
 * Starts an online payment and answers the hosted page for the payment frame.
 *
 * @example
 * ```ts
 * const { url } = await createOnlinePayment(ctx, { amount: 100, currency: 1, userId, isMonthly: false, language: "he" });
 * ```
 */
export async function createOnlinePayment(
  ctx: PaymentsContext,
  input: { amount: number; currency: CurrencyCode; userId: string; isMonthly: boolean; language: Lang },
  channel: "online" | "test-terminal" = "online",
  shopNumber: string | null = null,
  retried = false,
): Promise<{ url: string; payment: Payment }> {
  const { donor, minor } = await prepare(ctx, input);
  const now = clock(ctx);
  const candidate = pendingPayment(ctx, donor.id, minor, {
    currency: input.currency,
    isMonthly: input.isMonthly,
    language: input.language,
    channel,
    shopNumber,
  }, now);
  const dedupeKey = [
    channel,
    donor.id,
    minor,
    input.currency,
    input.isMonthly ? "monthly" : "one-time",
    shopNumber,
  ]
    .join("|");
  const { created, payment } = await ctx.store.payments.createOrReuse(
    candidate,
    dedupeKey,
    DEDUPE_WINDOW_MS,
    now.getTime(),
  );
  if (!created) {
    const ready = payment.pageUrl ? payment : await waitForPage(ctx, payment.id);
    if (ready.pageUrl) return { url: ready.pageUrl, payment: ready };
    if (ready.status === "pending" && abandoned(ctx, ready) && !retried) {
      // Nobody is starting it any more: close it, so this request starts a payment of its own
      // instead of the donor waiting out the dedupe window.
      await ctx.store.payments.update(ready.id, { status: "failed", updatedAt: clock(ctx).toISOString() });
      ctx.log.warn("abandoned payment closed", { paymentId: ready.id });
      return await createOnlinePayment(ctx, input, channel, shopNumber, true);
    }
    throw new HttpError(503, "The payment provider is not answering; nothing was charged. Please try again.");
  }
  try {
    const session = await providerCall(
      ctx,
      "startHostedPayment",
      payment.id,
      () =>
        ctx.provider.startHostedPayment({
          paymentId: payment.id,
          userKey: payment.userKey,
          amount: minor,
          currency: input.currency,
          language: input.language,
          tokenize: input.isMonthly,
          returnUrl: `${ctx.origin}/payments/return/${payment.id}`,
          notifyUrl: `${ctx.origin}/api/payment/notify/${ctx.provider.id}`,
        }),
    );
    const started = await ctx.store.payments.update(payment.id, {
      providerRef: session.providerRef,
      pageUrl: session.url,
      confirmationKey: session.confirmationKey,
      updatedAt: clock(ctx).toISOString(),
    });
    ctx.log.info("payment started", {
      paymentId: payment.id,
      provider: ctx.provider.id,
      channel,
      amount: minor,
    });
    return { url: session.url, payment: started! };
  } catch (e) {
    await ctx.store.payments.update(payment.id, { status: "failed", updatedAt: clock(ctx).toISOString() });
    if (e instanceof ProviderError) {
      ctx.log.error("payment provider failed to start a payment", {
        paymentId: payment.id,
        error: e.message,
        code: e.code,
      });
      throw new HttpError(
        503,
        "The payment provider is not answering; nothing was charged. Please try again.",
      );
    }
    throw e;
  }
}

/** A new pending payment record: the part every channel shares. */
function pendingPayment(
  ctx: PaymentsContext,
  donorId: string,
  amount: number,
  input: Pick<Payment, "currency" | "isMonthly" | "language" | "channel" | "shopNumber">,
  now: Date,
): Payment {
  return {
    id: newId(),
    donorId,
    amount,
    currency: input.currency,
    isMonthly: input.isMonthly,
    language: input.language,
    channel: input.channel,
    shopNumber: input.shopNumber,
    provider: ctx.provider.id,
    providerRef: null,
    pageUrl: null,
    userKey: newId(),
    confirmationKey: null,
    status: "pending",
    transactionId: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
}

/** How a payment ended, after verification with the provider. */
export interface Completion {
  outcome: "succeeded" | "failed" | "pending";
  payment: Payment;
  result: ProviderResult | null;
  transaction: Transaction | null;
}

/**
 * Verifies a payment with the provider and records its result once. Safe to call any number of
 * times, from the browser's return and the provider's notification alike.
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
  const success = statusCode === "000";
  const transaction = await record(ctx, payment, {
    providerRef: payment.providerRef,
    statusCode,
    errorMessage,
    amount: result.amount ?? payment.amount,
    currency: result.currency ?? payment.currency,
    resultData: result.resultData,
  });
  const finished = await finish(ctx, payment, success, transaction, success ? result.token : null);
  return {
    outcome: success ? "succeeded" : "failed",
    payment: finished,
    result: { ...result, statusCode },
    transaction,
  };
}

async function record(
  ctx: CompletionContext,
  payment: Payment,
  fields: Pick<Transaction, "statusCode" | "errorMessage" | "amount" | "currency" | "resultData"> & {
    providerRef: string;
  },
): Promise<Transaction> {
  const donor = await ctx.store.donors.get(payment.donorId);
  const { created, transaction } = await ctx.store.transactions.record({
    id: newId(),
    kind: fields.statusCode === "000" ? "success" : "error",
    statusCode: fields.statusCode,
    isMonthly: payment.isMonthly,
    createdAt: clock(ctx).toISOString(),
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
  });
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
 */
async function finish(
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

/**
 * Runs a donation at the kiosk's terminal and records it. Answers the terminal envelope of spec
 * section 3; a timeout answers a non-"000" status and records the failure.
 *
 * @example
 * ```ts
 * const result = await terminalPayment(ctx, { amount: 100, currency: 1, userId, language: "he", shopNumber: "12" }, "pp-12", 60_000);
 * ```
 */
export async function terminalPayment(
  ctx: PaymentsContext,
  input: { amount: number; currency: CurrencyCode; userId: string; language: Lang; shopNumber: string },
  terminalId: string,
  deadlineMs: number,
  retried = false,
): Promise<TerminalResult> {
  const { donor, minor } = await prepare(ctx, { ...input, isMonthly: false });
  const now = clock(ctx);
  const { created, payment } = await ctx.store.payments.createOrReuse(
    pendingPayment(
      ctx,
      donor.id,
      minor,
      {
        currency: input.currency,
        isMonthly: false,
        language: input.language,
        channel: "terminal",
        shopNumber: input.shopNumber,
      },
      now,
    ),
    ["terminal", donor.id, minor, input.currency, input.shopNumber].join("|"),
    DEDUPE_WINDOW_MS,
    now.getTime(),
  );
  if (!created) {
    const earlier = retried ? null : await resumeTerminalSale(ctx, payment);
    if (earlier === "start-again") return await terminalPayment(ctx, input, terminalId, deadlineMs, true);
    if (earlier) return earlier;
    throw new HttpError(
      409,
      "This donation is already waiting at the terminal; finish it there or wait a minute",
    );
  }
  let result: TerminalResult;
  try {
    result = await providerCall(ctx, "terminalSale", payment.id, () =>
      ctx.provider.terminalSale({
        terminalId,
        shopNumber: input.shopNumber,
        amount: minor,
        currency: input.currency,
        reference: payment.id,
        language: input.language,
        deadlineMs,
      }));
  } catch (e) {
    // Anything but the terminal service failing (storage gone, say) leaves the sale's fate unknown:
    // the payment stays pending, for a repeat to look the sale up (resumeTerminalSale).
    if (!(e instanceof ProviderError)) throw e;
    await ctx.store.payments.update(payment.id, { status: "failed", updatedAt: clock(ctx).toISOString() });
    ctx.log.error("terminal sale failed", { paymentId: payment.id, error: e.message, code: e.code });
    throw new HttpError(
      503,
      "The payment terminal service is not answering; nothing was charged. Please try again.",
    );
  }
  return await settleTerminalSale(ctx, payment, result);
}

/**
 * What became of the earlier attempt of a repeated kiosk donation (same donor, amount and shop
 * within the dedupe window) whose request died midway, e.g. storage went away during the sale:
 * its approved sale, recorded now and answered again (the donor is charged once); `start-again`
 * when it ended without a charge (recorded if the terminal declined it) or never reached the
 * terminal; null while it may still be going on (409).
 */
async function resumeTerminalSale(
  ctx: PaymentsContext,
  payment: Payment,
): Promise<TerminalResult | "start-again" | null> {
  if (payment.status !== "pending" || !ctx.provider.lookupTerminalSale) return null;
  const found = await ctx.provider.lookupTerminalSale(payment.id);
  if (found === "waiting") return null;
  if (found === null) {
    if (!abandoned(ctx, payment)) return null;
    await ctx.store.payments.update(payment.id, { status: "failed", updatedAt: clock(ctx).toISOString() });
    ctx.log.warn("abandoned terminal payment closed", { paymentId: payment.id });
    return "start-again";
  }
  ctx.log.warn("terminal sale of an interrupted attempt recorded", { paymentId: payment.id });
  const settled = await settleTerminalSale(ctx, payment, found);
  return settled.StatusCode === "000" ? settled : "start-again";
}

/** Records a finished terminal sale once and finishes its payment; answers the envelope. */
async function settleTerminalSale(
  ctx: PaymentsContext,
  payment: Payment,
  result: TerminalResult,
): Promise<TerminalResult> {
  const minor = payment.amount;
  const providerRef = result.ResultData.TransactionId || `${payment.id}-terminal`;
  await ctx.store.payments.update(payment.id, { providerRef, updatedAt: clock(ctx).toISOString() });
  let statusCode = result.StatusCode;
  const charged = Number(result.ResultData.DebitTotal ?? minor);
  if (statusCode === "000" && charged !== minor) {
    ctx.log.error("terminal charged a different amount", { paymentId: payment.id, expected: minor, charged });
    statusCode = "MISMATCH";
  }
  const transaction = await record(ctx, payment, {
    providerRef,
    statusCode,
    errorMessage: statusCode === "000" ? null : result.ErrorMessage || `Declined (${statusCode})`,
    amount: minor,
    currency: payment.currency,
    resultData: statusCode === "000"
      ? {
        CreditCardNumber: String(result.ResultData.CreditCardNumber ?? ""),
        CreditType: String(result.ResultData.CreditType ?? "1"),
        DebitTotal: String(minor),
        DebitCurrency: payment.currency,
        VoucherId: result.ResultData.VoucherId,
        ShvaResult: result.ResultData.ShvaResult,
      }
      : null,
  });
  await finish(ctx, { ...payment, providerRef }, statusCode === "000", transaction, null);
  return { ...result, StatusCode: statusCode };
}
