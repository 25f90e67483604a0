/**
 * Taking donations: the payment calls of spec section 7 on top of a {@link PaymentProvider}, one
 * module per way a donation goes, and here what they all share: the context they run in, the
 * checks every donation passes, a new pending payment record, and the log line of a provider call.
 *
 * - `online.ts`: `createOnlinePayment` records a pending payment and answers the provider's hosted
 *   page; a repeated identical request within a minute answers the same payment.
 * - `completion.ts`: `completePayment` asks the provider for the result (never the browser), then
 *   records exactly one transaction per provider payment, however often the return and the
 *   notification arrive. A monthly payment that succeeded starts a subscription with the
 *   provider's card token.
 * - `terminal_sales.ts`: `terminalPayment` runs a sale on the kiosk's terminal and records its
 *   result the same way.
 *
 * What goes wrong is a domain error (`errors.ts`); the HTTP layer gives it its status.
 *
 * @module
 */
import { newId } from "@/lib/core/ids.ts";
import type { Logger } from "@/lib/core/log.ts";
import type { RateLimitSettings } from "@/lib/rate_limits/mod.ts";
import { type CurrencyCode, MIN_AMOUNT, toMinor } from "@/lib/shared/money.ts";
import { levelById } from "@/lib/shared/museum.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import type { Donor, Payment, Store } from "@/lib/storage/types.ts";
import { InvalidDonationError, MonthlyUnavailableError, UnknownDonorError } from "./errors.ts";
import { type PaymentProvider, ProviderError } from "@/lib/providers/mod.ts";

/** A repeated identical create within this window answers the same payment. */
export const DEDUPE_WINDOW_MS = 60_000;

/**
 * A payment still without its page this long after it was created has no request starting it
 * any more (that request failed, e.g. storage went away after creating it, or its process died):
 * longer than the provider may take to start one (Pelecard's calls time out after 15 s).
 */
export const ABANDONED_START_MS = 20_000;

/** What the payment functions need. */
export interface PaymentsContext {
  store: Store;
  provider: PaymentProvider;
  log: Logger;
  /** Our public origin, for the provider's return and notification addresses. */
  origin: string;
  maxAmount: number;
  monthlyEnabled: boolean;
  /**
   * The decline caps (`lib/rate_limits/rate_limits.ts`): with them, an online payment is refused while the
   * donor's email or {@link clientAddress} has too many declines, and a decline recorded counts.
   */
  rateLimits?: RateLimitSettings;
  /** The address of the client starting the payment, when a request starts it. */
  clientAddress?: string;
  /**
   * Whether starting the payment counts against the per-address and global payment limits (default
   * true); false when the request was counted already (the no-JavaScript form counts it before it
   * creates the donor).
   */
  countRequest?: boolean;
  /** Days of grace after a membership's end (`MEMBERSHIP_GRACE_DAYS`); 30 when not given. */
  membershipGraceDays?: number;
  now?: () => Date;
}

/**
 * What verifying and recording a finished payment needs (`completePayment` in `completion.ts`): no
 * limits or origin, so a background pass (`reconcile.ts`) records exactly as the return route does.
 */
export type CompletionContext = Pick<
  PaymentsContext,
  "store" | "provider" | "log" | "now" | "rateLimits" | "membershipGraceDays"
>;

/**
 * The context's time: its clock, or the real one.
 *
 * @example
 * ```ts
 * const createdAt = clock(ctx).toISOString();
 * ```
 */
export const clock = (ctx: CompletionContext): Date => ctx.now?.() ?? new Date();

/**
 * Runs one provider call with a log line (carrying the request id of `ctx.log`): name, time, outcome.
 *
 * @example
 * ```ts
 * const result = await providerCall(ctx, "verifyPayment", payment.id, () =>
 *   ctx.provider.verifyPayment(ref, expected));
 * ```
 */
export async function providerCall<T>(
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

/**
 * The amount and donor checks every payment call shares: the donor, and the amount in minor units.
 * A gift at a membership level (`levelId`) must be that level's price in its currency, as the
 * museum's settings say now, and monthly only where the level is offered monthly: the server
 * decides prices, so a page loaded before an owner changed them is refused, never charged the old
 * price. An other amount that happens to equal a price stays a donation (it names no level).
 *
 * @example
 * ```ts
 * const { donor, minor } = await checkDonation(ctx, { amount: 12.5, currency: 2, userId, isMonthly: false });
 * minor; // 1250
 * ```
 */
export async function checkDonation(
  ctx: PaymentsContext,
  input: {
    amount: number;
    currency: CurrencyCode;
    userId: string;
    isMonthly: boolean;
    levelId?: number | null;
    autoRenew?: boolean;
  },
): Promise<{ donor: Donor; minor: number }> {
  if (input.isMonthly && !ctx.monthlyEnabled) throw new MonthlyUnavailableError();
  if (input.autoRenew && (input.isMonthly || input.levelId == null)) {
    throw new InvalidDonationError("Automatic renewal is only for a one-time gift at a membership level", [{
      path: "autoRenew",
      message: "needs a one-time gift at a level",
    }]);
  }
  if (input.amount < MIN_AMOUNT) {
    throw new InvalidDonationError(`The amount must be at least ${MIN_AMOUNT}`, [{
      path: "amount",
      message: "too small",
    }]);
  }
  if (input.amount > ctx.maxAmount) {
    throw new InvalidDonationError(`The amount must be at most ${ctx.maxAmount}`, [{
      path: "amount",
      message: "too large",
    }]);
  }
  const minor = toMinor(input.amount);
  if (minor === null) {
    throw new InvalidDonationError("The amount must have at most two decimals", [{
      path: "amount",
      message: "not money",
    }]);
  }
  if (input.levelId != null) await checkLevel(ctx, input.levelId, minor, input.currency, input.isMonthly);
  const donor = await ctx.store.donors.get(input.userId);
  // An erased donor's record gives no new gift (it has no name or address left to receipt).
  if (!donor || donor.erasedAt !== undefined) throw new UnknownDonorError();
  return { donor, minor };
}

/** A gift at level `levelId` of `minor` in `currency`: refused unless it is the level's price now. */
async function checkLevel(
  ctx: PaymentsContext,
  levelId: number,
  minor: number,
  currency: CurrencyCode,
  isMonthly: boolean,
): Promise<void> {
  const level = levelById((await readMuseumSettings(ctx.store)).levels, levelId);
  if (!level) {
    throw new InvalidDonationError(`There is no membership level ${levelId}`, [{
      path: "levelId",
      message: "unknown level",
    }]);
  }
  if (isMonthly && !level.monthly) {
    throw new InvalidDonationError(`Membership level ${levelId} is not offered as a monthly gift`, [{
      path: "levelId",
      message: "not monthly",
    }]);
  }
  const name = currency === 1 ? "nis" : "dollars";
  if (level.price[name] !== minor) {
    throw new InvalidDonationError(
      `The price of membership level ${levelId} in ${name} is ${level.price[name] / 100}, not ${minor / 100}`,
      [{ path: "levelId", message: "the amount is not the level's price" }],
    );
  }
}

/**
 * Whether a pending payment is {@link ABANDONED_START_MS} old: no request is starting it any more.
 *
 * @example
 * ```ts
 * if (payment.status === "pending" && isAbandoned(ctx, payment)) closeIt(payment);
 * ```
 */
export const isAbandoned = (ctx: CompletionContext, payment: Payment): boolean =>
  clock(ctx).getTime() - Date.parse(payment.createdAt) >= ABANDONED_START_MS;

/**
 * A new pending payment record: the part every channel shares.
 *
 * @example
 * ```ts
 * const payment = newPendingPayment(ctx, donor.id, 1250, {
 *   currency: 1, isMonthly: false, language: "en", channel: "online", shopNumber: null,
 * }, new Date());
 * ```
 */
export function newPendingPayment(
  ctx: PaymentsContext,
  donorId: string,
  amount: number,
  input:
    & Pick<Payment, "currency" | "isMonthly" | "language" | "channel" | "shopNumber" | "levelId">
    & { autoRenew?: boolean }
    & Partial<Pick<Payment, "gift">>,
  now: Date,
): Payment {
  return {
    ...(input.levelId == null ? {} : { levelId: input.levelId }),
    ...(input.autoRenew ? { autoRenew: true as const } : {}),
    ...(input.gift ? { gift: input.gift } : {}),
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
