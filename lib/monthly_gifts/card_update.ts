/**
 * A donor replaces the card of a monthly gift (issue 15, donor portal): through the provider's
 * hosted page in tokenization mode, on the sandbox and on Pelecard.
 *
 * 1. {@link startCardUpdate}: the signed-in donor's gift is checked (theirs, active, on this
 *    provider), an attempt is stored (`store.cardUpdates`), and the provider's page is started as a
 *    check only: Pelecard's J2 with `CreateToken`, the card checked and tokenized and nothing
 *    charged. Pelecard refuses a zero total (205), so the check carries a nominal
 *    {@link CHECK_AMOUNT} that is never charged.
 * 2. {@link completeCardUpdate}: from the donor's return or the provider's notification (both only
 *    name the provider's reference), the result is asked of the provider, never taken from the query
 *    string, and checked against the attempt (its key, the check's amount, a check and not a charge).
 *    Only a confirmed new token replaces the old one: over the subscription's `version`
 *    (`updateIfVersion`), with the `card-updated` email in the same atomic step. A decline leaves
 *    the old card as it was. The attempt then moves to its final state once (`cardUpdates.finish`):
 *    the return and the notification both arriving, or the return reloaded, apply once (a token
 *    already in place is not written again, and the email's key is the attempt's).
 * 3. A gift that was failing (declined, waiting for a retry) is due again at once with the new card
 *    (the same write sets `retryAt` to now) and charged through billing's own path
 *    ({@link chargeSubscriptionNow}): the claim per period and attempt keeps it exactly once, even
 *    beside a billing pass.
 *
 * A charge billing has already marked (`charging`) is not waited for: it settles with the card it
 * started with, nothing is lost or charged twice, and the new card is used from the next charge.
 *
 * @module
 */
import { newId } from "@/lib/core/ids.ts";
import type { Logger } from "@/lib/core/log.ts";
import type { RateLimitSettings } from "@/lib/rate_limits/mod.ts";
import { lastFour } from "@/lib/shared/format.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { subscriptionDueAt } from "@/lib/storage/records.ts";
import type { CardUpdate, Store, Subscription } from "@/lib/storage/types.ts";
import { chargeSubscriptionNow } from "./billing.ts";
import { admitCardUpdate, type CardUpdateClient, countCardDecline } from "./card_update_limits.ts";
import type { PaymentProvider } from "@/lib/providers/mod.ts";
import { GiftChangeError, GiftEndedError, type GiftRef, ownGift } from "./subscription_changes.ts";

/** The check's nominal total in minor units (1.00): Pelecard's plugin checks cards with it; never charged. */
export const CHECK_AMOUNT = 100;

/** Writes lost to racing writes before applying gives up for now (the next return or notify retries). */
const MAX_TRIES = 8;

/** The gift was started on another provider than the one configured now: its card cannot be replaced here. */
export class CardUpdateUnavailableError extends GiftChangeError {
  override readonly kind = "conflict";
  constructor() {
    super("This monthly gift's card cannot be updated here; please contact the museum");
  }
}

/** What a card update needs. */
export interface CardUpdateContext {
  store: Store;
  provider: PaymentProvider;
  log: Logger;
  /** Our public origin, for the return and notification addresses. */
  origin: string;
  /** Who starts the check: counted against its limits (`card_update_limits.ts`). */
  client: CardUpdateClient;
  /** The decline caps shared with payments (`config.rateLimits`); without them only the gift's lock counts. */
  rateLimits?: RateLimitSettings;
  now?: () => Date;
}

/**
 * What verifying and applying an attempt needs: no origin or client (the provider's notification
 * and reconciliation have none to give).
 */
export type CardCompletionContext = Omit<CardUpdateContext, "origin" | "client">;

const clock = (ctx: CardCompletionContext) => ctx.now?.() ?? new Date();

/**
 * How an attempt ended: the new card in place; declined or cancelled on the provider's page (the old
 * card kept); the gift ended meanwhile (the old card kept); or not known yet.
 */
export type CardUpdateOutcome = "applied" | "declined" | "cancelled" | "pending" | "ended";

/** The provider's code of a payer who left its page with its Cancel button (Pelecard 555). */
const CANCELLED = "555";

/**
 * The return address of an attempt: where the provider's page sends the browser back, whatever the
 * result (the result is asked of the provider there).
 */
export const cardReturnPath = (attemptId: string) => `/payments/card/${attemptId}`;

/**
 * Starts replacing the card of the donor's gift `ref`: answers the provider's page to send the
 * browser to. Throws `NoSuchGiftError` (unknown, or not the address's: `ownGift`), {@link GiftEndedError},
 * {@link CardUpdateUnavailableError}, the limits' refusals (`card_update_limits.ts`: the gift
 * locked after declines, too many checks or declines, everyone's checks used up), or
 * `ProviderError` (the provider did not start the page; the attempt is closed as failed).
 *
 * @example
 * ```ts
 * const { url } = await startCardUpdate(ctx, { subscriptionId, email: session.email }, "he");
 * return Response.redirect(url, 303);
 * ```
 */
export async function startCardUpdate(
  ctx: CardUpdateContext,
  ref: GiftRef,
  language: Lang,
): Promise<{ attempt: CardUpdate; url: string }> {
  const sub = await ownGift(ctx.store, ref);
  if (sub.status !== "active") throw new GiftEndedError();
  if (sub.provider !== ctx.provider.id) throw new CardUpdateUnavailableError();
  const id = newId();
  await admitCardUpdate(
    ctx.store,
    ctx.rateLimits,
    { subscriptionId: sub.id, attemptId: id, client: ctx.client },
    clock(ctx).getTime(),
  );
  const at = clock(ctx).toISOString();
  const attempt: CardUpdate = {
    id,
    subscriptionId: sub.id,
    // The gift's own record: the check and the new card apply to it only (`applyToken`).
    donorIds: [sub.donorId],
    provider: ctx.provider.id,
    providerRef: null,
    userKey: newId(),
    confirmationKey: null,
    language,
    status: "open",
    statusCode: null,
    createdAt: at,
    updatedAt: at,
  };
  await ctx.store.cardUpdates.create(attempt);
  let session;
  try {
    session = await ctx.provider.startHostedPayment({
      paymentId: attempt.id,
      userKey: attempt.userKey,
      amount: CHECK_AMOUNT,
      currency: sub.currency,
      language,
      tokenize: true,
      checkOnly: true,
      returnUrl: `${ctx.origin}${cardReturnPath(attempt.id)}`,
      notifyUrl: `${ctx.origin}/api/payment/notify/${ctx.provider.id}`,
    });
  } catch (e) {
    await ctx.store.cardUpdates.finish(attempt.id, "failed", null, clock(ctx).toISOString());
    throw e;
  }
  const started = await ctx.store.cardUpdates.setProviderRef(
    attempt.id,
    session.providerRef,
    session.confirmationKey,
    clock(ctx).toISOString(),
  );
  ctx.log.info("card update started", { attemptId: attempt.id, subscriptionId: sub.id });
  return { attempt: started ?? attempt, url: session.url };
}

/**
 * Verifies an attempt with the provider and, when the provider confirms a new token, puts it on the
 * gift once (see the module's notes). Safe to call any number of times, from the return and the
 * notification alike; a final attempt is answered from storage without asking the provider.
 * Throws `ProviderError` when the provider cannot be asked (nothing changes; ask again later).
 *
 * @example
 * ```ts
 * const { outcome } = await completeCardUpdate(ctx, attempt);
 * ```
 */
export async function completeCardUpdate(
  ctx: CardCompletionContext,
  attempt: CardUpdate,
): Promise<{ outcome: CardUpdateOutcome; attempt: CardUpdate }> {
  const finalOutcome = (a: CardUpdate): CardUpdateOutcome =>
    a.status === "applied"
      ? "applied"
      : a.status === "failed" && a.statusCode === "000"
      ? "ended"
      : a.statusCode === CANCELLED
      ? "cancelled"
      : "declined";
  if (attempt.status !== "open") return { outcome: finalOutcome(attempt), attempt };
  if (!attempt.providerRef) return { outcome: "pending", attempt };
  const result = await ctx.provider.verifyPayment(attempt.providerRef, {
    userKey: attempt.userKey,
    amount: CHECK_AMOUNT,
    confirmationKey: attempt.confirmationKey,
    checkOnly: true,
  });
  if (result.pending) return { outcome: "pending", attempt };
  const finish = async (status: "applied" | "declined" | "failed", code: string | null) => {
    const done = await ctx.store.cardUpdates.finish(attempt.id, status, code, clock(ctx).toISOString());
    // A card refused (not a donor who left the page) counts once: by the call that finished it.
    if (done?.moved && status === "declined" && code !== CANCELLED) await countDecline(ctx, attempt);
    const stored = done?.update ?? attempt;
    return { outcome: finalOutcome(stored), attempt: stored };
  };
  const echoed = result.reference === null || result.reference === attempt.id;
  if (result.statusCode !== "000" || !result.token || !echoed) {
    ctx.log.info("card update declined", { attemptId: attempt.id, statusCode: result.statusCode });
    return await finish("declined", result.statusCode === "000" ? "MISMATCH" : result.statusCode);
  }
  const applied = await applyToken(ctx, attempt, result.token, result.resultData?.CreditCardNumber ?? null);
  if (applied === "busy") return { outcome: "pending", attempt };
  if (applied === "ended") {
    ctx.log.warn("card update confirmed for a gift that ended meanwhile", { attemptId: attempt.id });
    return await finish("failed", "000");
  }
  const answer = await finish("applied", "000");
  await chargeIfFailing(ctx, attempt, applied);
  return answer;
}

/** Counts a declined check against its gift's lock and the decline caps of its donor's email and address. */
async function countDecline(ctx: CardCompletionContext, attempt: CardUpdate) {
  const sub = await ctx.store.subscriptions.get(attempt.subscriptionId);
  const donor = sub ? await ctx.store.donors.get(sub.donorId) : null;
  await countCardDecline(ctx.store, ctx.rateLimits, {
    attemptId: attempt.id,
    subscriptionId: attempt.subscriptionId,
    email: donor?.email ?? "",
  }, clock(ctx).getTime());
}

/** Puts `token` on the attempt's gift over the version read, with its email; idempotent. */
async function applyToken(
  ctx: CardCompletionContext,
  attempt: CardUpdate,
  token: string,
  masked: unknown,
): Promise<Subscription | "ended" | "busy"> {
  const cardMasked = typeof masked === "string" && masked ? masked : null;
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const sub = await ctx.store.subscriptions.get(attempt.subscriptionId);
    if (!sub || !attempt.donorIds.includes(sub.donorId) || sub.status !== "active") return "ended";
    if (sub.token === token) return sub;
    const now = clock(ctx).toISOString();
    // A gift waiting for a retry after a decline is due again now, with the new card.
    const failing = sub.failedAttempts > 0 && sub.charging === null;
    const updated = await ctx.store.subscriptions.updateIfVersion(sub.id, sub.version, {
      token,
      cardMasked,
      ...(failing ? { retryAt: now } : {}),
    }, {
      messages: [{
        key: `card-updated:${attempt.id}`,
        kind: "card-updated",
        to: { donorId: sub.donorId },
        language: sub.language,
        data: {
          subscriptionId: sub.id,
          last4: lastFour(cardMasked),
          amount: sub.amount,
          currency: sub.currency,
          nextPaymentDate: failing ? now : sub.nextPaymentDate,
        },
      }],
    });
    if (updated) {
      ctx.log.info("card updated", { attemptId: attempt.id, subscriptionId: sub.id, failing });
      return updated;
    }
  }
  return "busy";
}

/** A gift in retry after a decline, due now with its new card: charged through billing's own path. */
async function chargeIfFailing(ctx: CardCompletionContext, attempt: CardUpdate, sub: Subscription) {
  if (sub.failedAttempts === 0 || sub.charging !== null) return;
  if (subscriptionDueAt(sub) > clock(ctx).toISOString()) return;
  const outcome = await chargeSubscriptionNow({
    store: ctx.store,
    provider: ctx.provider,
    log: ctx.log,
    holder: `card-update:${attempt.id}`,
    now: ctx.now,
  }, sub.id);
  ctx.log.info("failing monthly gift charged after its card update", {
    attemptId: attempt.id,
    subscriptionId: sub.id,
    outcome,
  });
}
