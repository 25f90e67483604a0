/**
 * Kiosk donations at the card terminal (PinPad): the sale run at the shop's terminal and recorded
 * through `completion.ts`, answered in the terminal envelope of spec section 3. A repeat of an
 * attempt that an outage cut short looks the sale up at the provider first, so a donor is never
 * charged twice.
 *
 * @module
 */
import type { Lang } from "@/lib/shared/languages.ts";
import type { CurrencyCode } from "@/lib/shared/money.ts";
import type { Payment } from "@/lib/storage/types.ts";
import { finishPayment, recordResult } from "@/lib/donations/mod.ts";
import { ProviderUnavailableError, TerminalBusyError, TerminalInUseError } from "@/lib/donations/mod.ts";
import { ProviderError, type TerminalResult } from "@/lib/providers/mod.ts";
import {
  checkDonation,
  clock,
  DEDUPE_WINDOW_MS,
  isAbandoned,
  newPendingPayment,
  type PaymentsContext,
  providerCall,
} from "@/lib/donations/mod.ts";

/** How long past its deadline a sale keeps its terminal claimed, should its request die midway. */
const TERMINAL_CLAIM_GRACE_MS = 10_000;

/** A kiosk sale: a one-time gift, at a membership level when the donor picked one. */
export interface TerminalSaleInput {
  amount: number;
  currency: CurrencyCode;
  userId: string;
  language: Lang;
  shopNumber: string;
  /** The membership level the gift is at (its price must be the amount), if any. */
  levelId?: number | null;
}

/**
 * Runs a donation at the kiosk's terminal and records it. Answers the terminal envelope of spec
 * section 3; a timeout answers a non-"000" status and records the failure.
 *
 * One sale at a time per terminal, across instances: the sale claims the terminal in storage (a
 * lease named after it, expiring with the sale's deadline), and another donation on the same
 * terminal meanwhile is refused ({@link TerminalInUseError}). The claim's holder is the donation
 * itself (donor, amount, currency, shop), so a repeat of the same donation still reaches the
 * dedupe below: it resumes an interrupted attempt, or is told the same donation is waiting.
 *
 * @example
 * ```ts
 * const result = await terminalPayment(ctx, { amount: 100, currency: 1, userId, language: "he", shopNumber: "12" }, "pp-12", 60_000);
 * ```
 */
export async function terminalPayment(
  ctx: PaymentsContext,
  input: TerminalSaleInput,
  terminalId: string,
  deadlineMs: number,
): Promise<TerminalResult> {
  const checked = await checkDonation(ctx, { ...input, isMonthly: false });
  const dedupeKey = [
    "terminal",
    checked.donor.id,
    checked.minor,
    input.currency,
    input.shopNumber,
    ...(input.levelId == null ? [] : [`level:${input.levelId}`]),
  ].join("|");
  const claim = `terminal:${terminalId}`;
  const claimed = await ctx.store.leases.acquire(
    claim,
    dedupeKey,
    clock(ctx).getTime(),
    deadlineMs + TERMINAL_CLAIM_GRACE_MS,
  );
  if (!claimed) throw new TerminalInUseError();
  let release = true;
  try {
    return await runTerminalSale(ctx, input, checked, dedupeKey, terminalId, deadlineMs);
  } catch (e) {
    // The same donation still waiting there holds the claim: it is not this call's to give up.
    if (e instanceof TerminalBusyError) release = false;
    throw e;
  } finally {
    // Storage gone: the claim expires with the sale's deadline instead.
    if (release) await ctx.store.leases.release(claim, dedupeKey).catch(() => {});
  }
}

async function runTerminalSale(
  ctx: PaymentsContext,
  input: TerminalSaleInput,
  checked: { donor: { id: string }; minor: number },
  dedupeKey: string,
  terminalId: string,
  deadlineMs: number,
  retried = false,
): Promise<TerminalResult> {
  const { donor, minor } = checked;
  const now = clock(ctx);
  const { created, payment } = await ctx.store.payments.createOrReuse(
    newPendingPayment(
      ctx,
      donor.id,
      minor,
      {
        currency: input.currency,
        isMonthly: false,
        language: input.language,
        channel: "terminal",
        shopNumber: input.shopNumber,
        levelId: input.levelId ?? undefined,
      },
      now,
    ),
    dedupeKey,
    DEDUPE_WINDOW_MS,
    now.getTime(),
  );
  if (!created) {
    const earlier = retried ? null : await resumeTerminalSale(ctx, payment);
    if (earlier === "start-again") {
      return await runTerminalSale(ctx, input, checked, dedupeKey, terminalId, deadlineMs, true);
    }
    if (earlier) return earlier;
    throw new TerminalBusyError();
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
    throw new ProviderUnavailableError("terminal");
  }
  return await settleTerminalSale(ctx, payment, result);
}

/**
 * What became of the earlier attempt of a repeated kiosk donation (same donor, amount and shop
 * within the dedupe window) whose request died midway, e.g. storage went away during the sale:
 * its approved sale, recorded now and answered again (the donor is charged once); `start-again`
 * when it ended without a charge (recorded if the terminal declined it) or never reached the
 * terminal; null while it may still be going on (a {@link TerminalBusyError}).
 */
async function resumeTerminalSale(
  ctx: PaymentsContext,
  payment: Payment,
): Promise<TerminalResult | "start-again" | null> {
  if (payment.status !== "pending" || !ctx.provider.lookupTerminalSale) return null;
  const found = await ctx.provider.lookupTerminalSale(payment.id);
  if (found === "waiting") return null;
  if (found === null) {
    if (!isAbandoned(ctx, payment)) return null;
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
  const transaction = await recordResult(ctx, payment, {
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
    // A card at the terminal, no token: the sale itself is what a refund credits, where it can.
    cardToken: null,
  });
  await finishPayment(ctx, { ...payment, providerRef }, statusCode === "000", transaction, null);
  return { ...result, StatusCode: statusCode };
}
