/**
 * Monthly billing: charges every due subscription's card token once per period.
 *
 * Exactly once, even with several app instances running passes at the same time and a crash in
 * the middle of one:
 * - a lease in storage lets one runner work at a time (others skip their pass);
 * - each charge attempt is claimed in storage first, keyed by subscription, period and attempt,
 *   so even two runners that both hold no lease cannot charge the same attempt twice;
 * - a claimed attempt that never finished (the pass died) is never charged again blindly: it is
 *   looked up at the provider by its reference when the provider can, and left for a person to
 *   check otherwise; a look-up that fails (the provider unreachable) is not "never charged": the
 *   claim stays open, so no new attempt starts, and the next pass asks again.
 *
 * A donor's change (`subscription_changes.ts`: amount, pause, skip, resume) and a charge exclude
 * each other through the subscription's `version` and `charging` mark: billing marks the charge
 * over the version it read (a change since wins: nothing is charged), and changes are refused while
 * a charge is marked; the settled charge clears the mark as it moves the subscription on.
 *
 * A failed charge is retried after 1, 3 and 7 days; then the subscription is marked failed and the
 * donor's monthly donation shows as no longer active.
 *
 * A successful charge of a monthly gift at a membership level keeps the membership going a month
 * more, in the same atomic step as its transaction (`lib/memberships/`); a declined one changes
 * nothing stored (the membership's state reads the retries from the subscription).
 *
 * @module
 */
import { newId } from "@/lib/core/ids.ts";
import type { Logger } from "@/lib/core/log.ts";
import type { MessageInput } from "@/lib/storage/message_types.ts";
import type { Charge, Store, Subscription } from "@/lib/storage/types.ts";
import { subscriptionDueAt } from "@/lib/storage/records.ts";
import { nextMonth, RETRY_DAYS } from "./billing_dates.ts";
import { sendTokenCharge, tokenChargeTransaction } from "./token_charge.ts";
import { type PaymentProvider, ProviderError, type ProviderResult } from "@/lib/providers/mod.ts";
import { membershipMessage, monthlyChargeChange } from "@/lib/memberships/mod.ts";

/** The lease's name and length: a pass renews it as it goes. */
export const BILLING_LEASE = "billing";
export const LEASE_MS = 5 * 60 * 1000;
/** A claimed charge older than this with no result is treated as a pass that died. */
export const STALE_CHARGE_MS = 15 * 60 * 1000;

/** What a billing pass needs. */
export interface BillingContext {
  store: Store;
  provider: PaymentProvider;
  log: Logger;
  /** This runner's name in the lease (e.g. host and process id). */
  holder: string;
  /** Days of grace after a membership's end (`MEMBERSHIP_GRACE_DAYS`); 30 when not given. */
  membershipGraceDays?: number;
  now?: () => Date;
}

/** What a pass did. */
export interface PassReport {
  ran: boolean;
  charged: number;
  failed: number;
  recovered: number;
  skipped: number;
}

const clock = (ctx: BillingContext) => ctx.now?.() ?? new Date();
const DAY_MS = 86_400_000;

/**
 * Runs one billing pass: recovers charges a dead pass left behind, then charges what is due.
 *
 * @example
 * ```ts
 * const report = await runBillingPass({ store, provider, log, holder: "web-1" });
 * ```
 */
export async function runBillingPass(
  ctx: BillingContext,
  options: { batch?: number; maxCharges?: number } = {},
): Promise<PassReport> {
  const report: PassReport = { ran: false, charged: 0, failed: 0, recovered: 0, skipped: 0 };
  if (!await ctx.store.leases.acquire(BILLING_LEASE, ctx.holder, clock(ctx).getTime(), LEASE_MS)) {
    return report;
  }
  report.ran = true;
  try {
    report.recovered = await recoverStale(ctx);
    const batch = options.batch ?? 100;
    const max = options.maxCharges ?? Infinity;
    const attempted = new Set<string>();
    while (report.charged + report.failed < max) {
      const due = (await ctx.store.subscriptions.listDue(clock(ctx).toISOString(), batch))
        .filter((s) => !attempted.has(s.id));
      if (due.length === 0) break;
      for (const sub of due) {
        if (report.charged + report.failed >= max) break;
        attempted.add(sub.id);
        if (!await ctx.store.leases.acquire(BILLING_LEASE, ctx.holder, clock(ctx).getTime(), LEASE_MS)) {
          ctx.log.warn("billing lease lost; stopping this pass", { holder: ctx.holder });
          return report;
        }
        const outcome = await chargeOnce(ctx, sub);
        if (outcome === "charged") report.charged++;
        else if (outcome === "failed") report.failed++;
        else report.skipped++;
      }
    }
    return report;
  } finally {
    await ctx.store.leases.release(BILLING_LEASE, ctx.holder);
    ctx.log.info("billing pass", { holder: ctx.holder, ...report });
  }
}

/**
 * Charges one subscription now if it is due, through the same steps as a pass (the re-read, the
 * `charging` mark over the version read, the claim per period and attempt): exactly once beside any
 * billing pass, on any instance. For a gift whose card the donor just replaced while it was waiting
 * for a retry (`card_update.ts`); a pass's lease is not needed for that guarantee, only for sharing
 * the work.
 *
 * @example
 * ```ts
 * await chargeSubscriptionNow({ store, provider, log, holder: "card-update" }, subscriptionId);
 * ```
 */
export async function chargeSubscriptionNow(
  ctx: BillingContext,
  subscriptionId: string,
): Promise<"charged" | "failed" | "skipped"> {
  const sub = await ctx.store.subscriptions.get(subscriptionId);
  return sub ? await chargeOnce(ctx, sub) : "skipped";
}

/** Charges one subscription's current attempt, unless it was claimed before. */
async function chargeOnce(
  ctx: BillingContext,
  listed: Subscription,
): Promise<"charged" | "failed" | "skipped"> {
  // Read again right before charging: a cancel, pause or skip a moment ago must win.
  const read = await ctx.store.subscriptions.get(listed.id);
  if (!read || read.status !== "active" || subscriptionDueAt(read) > clock(ctx).toISOString()) {
    return "skipped";
  }
  const period = read.nextPaymentDate;
  const attempt = read.failedAttempts;
  const reference = `${read.id}:${period}:${attempt}`;
  // Mark the charge on the subscription, over the version just read: a donor's change that landed
  // since wins (nothing is charged in this pass), and none lands until the charge is settled.
  // Already marked with this attempt: a runner died after marking; the claim below decides.
  if (read.charging !== null && read.charging !== reference) {
    ctx.log.warn("monthly charge: another attempt is still marked", { subscriptionId: read.id });
    return "skipped";
  }
  const sub = read.charging === reference
    ? read
    : await ctx.store.subscriptions.updateIfVersion(read.id, read.version, { charging: reference });
  if (!sub) return "skipped";
  const charge: Charge = {
    subscriptionId: sub.id,
    period,
    attempt,
    status: "started",
    reference,
    startedAt: clock(ctx).toISOString(),
    finishedAt: null,
    transactionId: null,
    // Kept with the claim: the transaction records it, even one a later pass recovers (issue 23).
    token: sub.token,
  };
  if (!await ctx.store.charges.claim(charge)) {
    const existing = await ctx.store.charges.get(sub.id, period, attempt);
    // Finished by a runner that died before moving the subscription on: move it on now.
    if (existing && existing.status !== "started") await advance(ctx, sub, existing.status === "succeeded");
    return "skipped";
  }
  // No answer: unknown whether the card was charged; the claim stays "started" and recovery finds out.
  const result = await sendTokenCharge(
    ctx.provider,
    ctx.log,
    { ...charge, token: sub.token },
    sub.amount,
    sub.currency,
    {
      subscriptionId: sub.id,
    },
  );
  if (!result) return "skipped";
  return await settle(ctx, sub, charge, result) ? "charged" : "failed";
}

/**
 * When a subscription declined at `now` is tried again, or null when that was its last try (it
 * then stops): what {@link advance} sets, and what the failed-charge email tells the donor.
 */
export function retryAfterDecline(sub: Subscription, now: Date): string | null {
  const attempts = sub.failedAttempts + 1;
  return attempts <= RETRY_DAYS.length
    ? new Date(now.getTime() + RETRY_DAYS[attempts - 1] * DAY_MS).toISOString()
    : null;
}

/**
 * The messages a monthly charge's transaction causes, enqueued with it: the receipt of a success,
 * or the failed-charge email saying when it is tried again (null: the gift stopped).
 */
export function chargeMessages(
  sub: Subscription,
  transactionId: string,
  success: boolean,
  now: Date,
): MessageInput[] {
  const to = { donorId: sub.donorId };
  if (success) {
    return [{
      key: `receipt:${transactionId}`,
      kind: "receipt",
      to,
      language: sub.language,
      data: { transactionId },
    }];
  }
  return [{
    key: `charge-failed:${transactionId}`,
    kind: "charge-failed",
    to,
    language: sub.language,
    data: { subscriptionId: sub.id, transactionId, retryAt: retryAfterDecline(sub, now) },
  }];
}

/**
 * Records a charge's result (with its messages, in one atomic step), finishes the claim, and moves
 * the subscription on.
 */
async function settle(
  ctx: BillingContext,
  sub: Subscription,
  charge: Charge,
  result: ProviderResult,
): Promise<boolean> {
  const donor = await ctx.store.donors.get(sub.donorId);
  // One instant for the transaction, its messages and the subscription's next step.
  const now = clock(ctx);
  const id = newId();
  // The token the charge was sent with, not the gift's of the moment: a refund credits that card.
  const { tx, success } = tokenChargeTransaction({
    id,
    at: now,
    donorId: sub.donorId,
    donor,
    isMonthly: true,
    amount: sub.amount,
    currency: sub.currency,
    provider: ctx.provider.id,
    charge,
    result,
  });
  const membership = success && donor?.email && !donor.erasedAt
    ? await monthlyChargeChange({ store: ctx.store, graceDays: ctx.membershipGraceDays }, sub, donor.email, {
      transactionId: id,
      paidAt: tx.createdAt,
      amount: tx.amount ?? sub.amount,
      currency: tx.currency ?? sub.currency,
    })
    : undefined;
  const { transaction } = await ctx.store.transactions.record(tx, {
    messages: [
      ...chargeMessages(sub, id, success, now),
      ...(membership
        ? [membershipMessage({ donorId: sub.donorId }, sub.language, membership.email, id)]
        : []),
    ],
    membership,
  });
  await ctx.store.charges.finish(sub.id, charge.period, charge.attempt, {
    status: success ? "succeeded" : "failed",
    finishedAt: clock(ctx).toISOString(),
    transactionId: transaction.id,
  });
  ctx.log.info("monthly charge", {
    subscriptionId: sub.id,
    reference: charge.reference,
    statusCode: transaction.statusCode,
    transactionId: transaction.id,
  });
  await advance(ctx, sub, success, now);
  return success;
}

/** Moves a subscription past its current attempt; idempotent for the same attempt. */
async function advance(
  ctx: BillingContext,
  sub: Subscription,
  success: boolean,
  now = clock(ctx),
): Promise<void> {
  if (success) {
    const next = nextMonth(sub.nextPaymentDate, sub.createdAt);
    const updated = await ctx.store.subscriptions.updateIfActive(sub.id, {
      paymentDate: now.toISOString(),
      nextPaymentDate: next,
      failedAttempts: 0,
      retryAt: null,
      charging: null,
      pausedFrom: null,
    });
    if (updated) {
      await ctx.store.donors.update(sub.donorId, { paymentDate: now.toISOString(), nextPaymentDate: next });
    }
    return;
  }
  const retryAt = retryAfterDecline(sub, now);
  if (retryAt !== null) {
    await ctx.store.subscriptions.updateIfActive(sub.id, {
      failedAttempts: sub.failedAttempts + 1,
      retryAt,
      charging: null,
    });
    return;
  }
  const failed = await ctx.store.subscriptions.updateIfActive(sub.id, {
    status: "failed",
    retryAt: null,
    charging: null,
  });
  if (failed) {
    await ctx.store.donors.update(sub.donorId, { monthlyPaymentAvailable: false, nextPaymentDate: null });
    ctx.log.warn("monthly donation failed after every retry", { subscriptionId: sub.id });
  }
}

/** Finds out what happened to charges a dead pass left "started". */
async function recoverStale(ctx: BillingContext): Promise<number> {
  const before = new Date(clock(ctx).getTime() - STALE_CHARGE_MS).toISOString();
  let recovered = 0;
  for (const charge of await ctx.store.charges.listStale(before, 100)) {
    const sub = await ctx.store.subscriptions.get(charge.subscriptionId);
    if (!sub) continue;
    if (!ctx.provider.lookupCharge) {
      ctx.log.warn("monthly charge needs a person to check it at the provider", {
        subscriptionId: sub.id,
        reference: charge.reference,
      });
      continue;
    }
    let result: ProviderResult | null;
    try {
      result = await ctx.provider.lookupCharge(charge.reference);
    } catch (e) {
      // Unreachable is not "never charged": the claim stays open (no new attempt can start) and the
      // next pass asks again.
      ctx.log.warn("monthly charge look-up failed; the claim stays open for the next pass", {
        subscriptionId: sub.id,
        reference: charge.reference,
        error: e instanceof Error ? e.message : String(e),
        code: e instanceof ProviderError ? e.code : undefined,
      });
      continue;
    }
    if (result && !result.pending) {
      await settle(ctx, sub, charge, result);
      recovered++;
    } else if (result === null) {
      // The provider never saw it: the charge did not happen; close the claim as failed-to-send
      // and let the next attempt number try again.
      await ctx.store.charges.finish(sub.id, charge.period, charge.attempt, {
        status: "failed",
        finishedAt: clock(ctx).toISOString(),
        transactionId: null,
      });
      await ctx.store.subscriptions.updateIfActive(sub.id, {
        failedAttempts: sub.failedAttempts + 1,
        retryAt: null,
        charging: null,
      });
      recovered++;
    } else {
      ctx.log.warn("monthly charge needs a person to check it at the provider", {
        subscriptionId: sub.id,
        reference: charge.reference,
      });
    }
  }
  return recovered;
}
