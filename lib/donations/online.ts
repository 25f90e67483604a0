/**
 * Online donations: a pending payment recorded, and the provider's hosted page for the payment
 * frame. A repeated identical request within a minute answers the same payment, so a double click
 * or a retried request never starts (or charges) a second one; a repeat of an attempt that an
 * outage cut short does not wait out the minute. The result comes back through `completion.ts`.
 * One started by a client counts against the payment limits, is refused while the donor's email or
 * the client's address has too many declines, and remembers that address, so its own decline
 * counts against it: one storage call (`admitPayment` in `../rate_limits.ts`).
 *
 * @module
 */
import { paymentAdmission, refusalError } from "@/lib/rate_limits/mod.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { CurrencyCode } from "@/lib/shared/money.ts";
import type { Payment } from "@/lib/storage/types.ts";
import { InvalidDonationError, ProviderUnavailableError } from "./errors.ts";
import { prepareGift } from "./gifts.ts";
import type { GiftFields } from "@/lib/shared/gift_membership.ts";
import { ProviderError } from "@/lib/providers/mod.ts";
import {
  checkDonation,
  clock,
  DEDUPE_WINDOW_MS,
  isAbandoned,
  newPendingPayment,
  type PaymentsContext,
  providerCall,
} from "./service.ts";

/**
 * Waits for a concurrent identical request to finish starting its payment: until it has its page
 * or another status, or it is abandoned (`ABANDONED_START_MS` old; 15 s of waiting at most).
 */
async function waitForPage(ctx: PaymentsContext, id: string): Promise<Payment> {
  const until = Date.now() + 15_000;
  for (;;) {
    const payment = await ctx.store.payments.get(id);
    if (!payment || payment.pageUrl || payment.status !== "pending") return payment!;
    if (Date.now() > until || isAbandoned(ctx, payment)) return payment;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

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
  input: {
    amount: number;
    currency: CurrencyCode;
    userId: string;
    isMonthly: boolean;
    language: Lang;
    /** The membership level the gift is at (its price must be the amount), if any. */
    levelId?: number | null;
    /** The donor consented to renew that membership automatically (a one-time gift at a level). */
    autoRenew?: boolean;
    /** A gift membership's fields (issue 28): the membership is then the recipient's. */
    gift?: GiftFields | null;
  },
  channel: "online" | "test-terminal" = "online",
  shopNumber: string | null = null,
  retried = false,
): Promise<{ url: string; payment: Payment }> {
  if (input.gift && input.autoRenew) {
    // The giver's card is not kept to renew someone else's membership every year.
    throw new InvalidDonationError("Automatic renewal is not offered for a gift membership", [{
      path: "autoRenew",
      message: "not with a gift",
    }]);
  }
  const { donor, minor } = await checkDonation(ctx, input);
  const now = clock(ctx);
  const gift = input.gift ? await prepareGift(ctx, input.gift, input, now) : undefined;
  const candidate = newPendingPayment(ctx, donor.id, minor, {
    currency: input.currency,
    isMonthly: input.isMonthly,
    language: input.language,
    channel,
    shopNumber,
    levelId: input.levelId ?? undefined,
    autoRenew: input.autoRenew === true,
    gift,
  }, now);
  const dedupeKey = [
    channel,
    donor.id,
    minor,
    input.currency,
    input.isMonthly ? "monthly" : "one-time",
    shopNumber,
    // A gift at a level is another request than the same amount given as a donation.
    ...(input.levelId == null ? [] : [`level:${input.levelId}`]),
    ...(input.autoRenew ? ["auto-renew"] : []),
    // A gift membership: another request than the level for oneself, or for someone else.
    ...(gift ? [`gift:${input.gift!.giftEmail.trim().toLowerCase()}`] : []),
  ]
    .join("|");
  // Counted, checked against the decline caps and remembered in the same storage call that stores
  // the payment: a refused start stores nothing else. Online only: a kiosk's card is in the museum.
  const client = channel === "online" && ctx.rateLimits && ctx.clientAddress;
  const answer = client
    ? await ctx.store.payments.createOrReuseAdmitted(
      candidate,
      dedupeKey,
      DEDUPE_WINDOW_MS,
      now.getTime(),
      paymentAdmission(ctx.rateLimits!, {
        email: donor.email,
        address: client,
        paymentId: candidate.id,
        countRequest: ctx.countRequest ?? true,
      }),
    )
    : {
      admitted: true as const,
      ...await ctx.store.payments.createOrReuse(candidate, dedupeKey, DEDUPE_WINDOW_MS, now.getTime()),
    };
  if (!answer.admitted) {
    // One line per refusal: a burst of them is what a card tester or a flood looks like.
    const error = refusalError(answer);
    if (answer.reason === "declines") {
      ctx.log.warn("payment refused: too many declines", { donorId: donor.id });
    } else ctx.log.warn("rate limited", { action: "payment", retryAfterSeconds: error.retryAfterSeconds });
    throw error;
  }
  const { created, payment } = answer;
  if (!created) {
    const ready = payment.pageUrl ? payment : await waitForPage(ctx, payment.id);
    if (ready.pageUrl) return { url: ready.pageUrl, payment: ready };
    if (ready.status === "pending" && isAbandoned(ctx, ready) && !retried) {
      // Nobody is starting it any more: close it, so this request starts a payment of its own
      // instead of the donor waiting out the dedupe window.
      await ctx.store.payments.update(ready.id, { status: "failed", updatedAt: clock(ctx).toISOString() });
      ctx.log.warn("abandoned payment closed", { paymentId: ready.id });
      // This request was counted already.
      return await createOnlinePayment({ ...ctx, countRequest: false }, input, channel, shopNumber, true);
    }
    throw new ProviderUnavailableError("provider");
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
          // A card kept for monthly charges, or for a membership renewed automatically.
          tokenize: input.isMonthly || input.autoRenew === true,
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
      throw new ProviderUnavailableError("provider");
    }
    throw e;
  }
}
