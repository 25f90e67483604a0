/**
 * Automatic renewal of yearly memberships (issue 27, item 5): at a membership's end, the card its
 * member consented to keep (`membership.autoRenew`) is charged the level's price, through billing's
 * machinery (`billing.ts`): a claim in `store.charges` per membership, term end and attempt, so of
 * any number of instances running this pass at once exactly one charges; the provider's token charge
 * with that claim's reference; the result recorded as a transaction with its messages and the
 * membership's change in one atomic step (`transactions.record(tx, { messages, membership })`).
 *
 * - **The price** is the level's price at charge time, in the currency of the consenting payment
 *   (the notice, 7 days before, states the price then; a price changed since is what is charged).
 *   A level no longer offered is not charged: auto-renewal stops and the member renews by hand.
 * - **A success** renews from the end ("renewal" term), with its receipt and membership email.
 * - **A decline** leaves the membership in grace (its state reads the dates), counts the attempt,
 *   and is retried after 1, 3 and 7 days as billing's are ({@link RETRY_DAYS}); each decline sends
 *   the failure email with the renewal link; after the last, auto-renewal stops and its token is
 *   dropped.
 * - **Unknown outcome** (the provider did not answer): the claim stays "started" and nothing more is
 *   tried for that attempt; a later pass looks it up by its reference ({@link STALE_CHARGE_MS} on,
 *   as billing's recovery does): settled if the provider has it, closed and counted as a failed
 *   attempt if the provider never saw it, left for a person (logged) when the provider cannot say.
 *
 * @module
 */
import { newId } from "@/lib/core/ids.ts";
import type { Logger } from "@/lib/core/log.ts";
import { autoRenewalChange, membershipMessage } from "@/lib/memberships/mod.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import type { PaymentProvider, ProviderResult } from "@/lib/providers/mod.ts";
import { FALLBACK_LANG, isLang } from "@/lib/shared/languages.ts";
import { levelById, type MembershipLevel } from "@/lib/shared/museum.ts";
import type { Charge, Membership, MessageInput, Store } from "@/lib/storage/types.ts";
import { RETRY_DAYS } from "./billing_dates.ts";
import { STALE_CHARGE_MS } from "./billing.ts";
import { sendTokenCharge, tokenChargeTransaction } from "./token_charge.ts";

const DAY_MS = 86_400_000;
const PAGE = 200;
/** How far back ends are looked at: every retry's days, and a few days of missed runs. */
const LOOK_BACK_MS = (RETRY_DAYS.reduce((a, b) => a + b, 0) + 3) * DAY_MS;

/** What the pass needs (billing's context). */
export interface AutoRenewalContext {
  store: Store;
  provider: PaymentProvider;
  log: Logger;
  holder: string;
  membershipGraceDays?: number;
  now?: () => Date;
}

/** What a pass did. */
export interface AutoRenewalReport {
  charged: number;
  failed: number;
  skipped: number;
}

/**
 * The charges' key in `store.charges` of a membership (its "subscription" there): unique per member
 * number, never a subscription's id (`sub_…`).
 */
export const autoRenewalChargeKey = (number: string): string => `membership:${number}`;

/**
 * One pass: charges every membership whose automatic renewal is due at `now` (its end, or its
 * retry, passed). No lease: the claim per attempt is what makes a charge once, and the pass reads
 * only the few memberships whose end is in the last weeks.
 *
 * @example
 * ```ts
 * await runAutoRenewalPass({ store, provider, log, holder: "web-1" });
 * ```
 */
export async function runAutoRenewalPass(ctx: AutoRenewalContext): Promise<AutoRenewalReport> {
  const report: AutoRenewalReport = { charged: 0, failed: 0, skipped: 0 };
  const now = ctx.now?.() ?? new Date();
  await recoverStale(ctx, now);
  const range = {
    from: new Date(now.getTime() - LOOK_BACK_MS).toISOString(),
    to: new Date(now.getTime() + 1).toISOString(),
  };
  let after: Membership | null = null;
  do {
    const page: Membership[] = await ctx.store.memberships.listByEnd(range, PAGE, after);
    for (const listed of page) {
      if (!listed.autoRenew || (listed.autoRenew.retryAt ?? listed.end) > now.toISOString()) continue;
      const outcome = await chargeOnce(ctx, listed.email, now);
      report[outcome]++;
    }
    after = page.length === PAGE ? page[PAGE - 1] : null;
  } while (after);
  if (report.charged + report.failed > 0) ctx.log.info("membership auto-renewal pass", { ...report });
  return report;
}

/** Charges the membership of `email` once for its current end and attempt, unless claimed before. */
async function chargeOnce(
  ctx: AutoRenewalContext,
  email: string,
  now: Date,
): Promise<"charged" | "failed" | "skipped"> {
  // Read again right before charging: a turn-off a moment ago wins.
  const membership = await ctx.store.memberships.get(email);
  const renew = membership?.autoRenew;
  if (!membership || !renew || (renew.retryAt ?? membership.end) > now.toISOString()) return "skipped";
  // An erased member (the membership is deleted a moment later) is never charged.
  const donor = await ctx.store.donors.get(membership.donorId);
  if (!donor || donor.erasedAt) return "skipped";
  const levelId = membership.terms.at(-1)!.levelId;
  const level = levelById((await readMuseumSettings(ctx.store)).levels, levelId);
  if (!level) {
    ctx.log.warn("auto-renewal stopped: the level is no longer offered", { number: membership.number });
    await ctx.store.memberships.change({
      email,
      apply: (c) => c?.autoRenew ? { ...c, autoRenew: null } : null,
    }, now.toISOString());
    return "skipped";
  }
  const amount = priceOf(level, renew.currency);
  const key = autoRenewalChargeKey(membership.number);
  const attempt = renew.failedAttempts;
  const charge: Charge = {
    subscriptionId: key,
    period: membership.end,
    attempt,
    status: "started",
    reference: `${key}:${membership.end}:${attempt}`,
    startedAt: now.toISOString(),
    finishedAt: null,
    transactionId: null,
    token: renew.token,
  };
  if (!await ctx.store.charges.claim(charge)) return "skipped";
  // No answer: unknown whether the card was charged; the claim stays "started" (recoverStale).
  const result = await sendTokenCharge(
    ctx.provider,
    ctx.log,
    { ...charge, token: renew.token },
    amount,
    renew.currency,
    {
      number: membership.number,
    },
  );
  if (!result) return "skipped";
  return await settle(ctx, membership, charge, amount, levelId, result, now) ? "charged" : "failed";
}

/** Records the charge's result with its messages and the membership's change, then finishes the claim. */
async function settle(
  ctx: AutoRenewalContext,
  membership: Membership,
  charge: Charge,
  amount: number,
  levelId: number,
  result: ProviderResult,
  now: Date,
): Promise<boolean> {
  const renew = membership.autoRenew!;
  const donor = await ctx.store.donors.get(membership.donorId);
  const id = newId();
  // Charged with the kept card: a refund of this renewal credits it, and only it.
  const { tx, success } = tokenChargeTransaction({
    id,
    at: now,
    donorId: membership.donorId,
    donor,
    isMonthly: false,
    amount,
    currency: renew.currency,
    provider: ctx.provider.id,
    charge,
    result,
  });
  const attempts = renew.failedAttempts + 1;
  const retryAt = success || attempts > RETRY_DAYS.length
    ? null
    : new Date(now.getTime() + RETRY_DAYS[attempts - 1] * DAY_MS).toISOString();
  const change = await autoRenewalChange(
    { store: ctx.store, graceDays: ctx.membershipGraceDays },
    membership.email,
    success,
    {
      end: membership.end,
      levelId,
      transactionId: id,
      paidAt: tx.createdAt,
      amount,
      currency: renew.currency,
      retryAt,
    },
  );
  const language = await languageOf(ctx.store, renew.transactionId);
  const to = { donorId: membership.donorId };
  const messages: MessageInput[] = success
    ? [
      { key: `receipt:${id}`, kind: "receipt", to, language, data: { transactionId: id } },
      membershipMessage(to, language, membership.email, id),
    ]
    : [{
      key: `membership-autorenew-failed:${membership.number}:${membership.end}:${charge.attempt}`,
      kind: "membership-autorenew-failed",
      to,
      language,
      data: { email: membership.email, end: membership.end, transactionId: id, retryAt },
    }];
  const { transaction } = await ctx.store.transactions.record(tx, { messages, membership: change });
  await ctx.store.charges.finish(charge.subscriptionId, charge.period, charge.attempt, {
    status: success ? "succeeded" : "failed",
    finishedAt: now.toISOString(),
    transactionId: transaction.id,
  });
  ctx.log.info("membership auto-renewal charge", {
    number: membership.number,
    reference: charge.reference,
    statusCode: transaction.statusCode,
    transactionId: transaction.id,
  });
  return success;
}

/** A level's price in `currency`. */
const priceOf = (level: MembershipLevel, currency: 1 | 2) =>
  currency === 1 ? level.price.nis : level.price.dollars;

/**
 * Finds out what happened to auto-renewal charges a pass left "started" (the provider did not
 * answer): billing's recovery skips them (they name no subscription), so they are this pass's.
 */
async function recoverStale(ctx: AutoRenewalContext, now: Date): Promise<void> {
  const before = new Date(now.getTime() - STALE_CHARGE_MS).toISOString();
  const prefix = autoRenewalChargeKey("");
  for (const charge of await ctx.store.charges.listStale(before, 100)) {
    if (!charge.subscriptionId.startsWith(prefix)) continue;
    const membership = await ctx.store.memberships.getByNumber(charge.subscriptionId.slice(prefix.length));
    const levelId = membership?.terms.at(-1)?.levelId;
    const level = levelById((await readMuseumSettings(ctx.store)).levels, levelId ?? 0);
    const renew = membership?.autoRenew;
    if (!membership || !renew || !level || membership.end !== charge.period || !ctx.provider.lookupCharge) {
      ctx.log.warn("auto-renewal charge needs a person to check it at the provider", {
        reference: charge.reference,
      });
      continue;
    }
    let result: ProviderResult | null;
    try {
      result = await ctx.provider.lookupCharge(charge.reference);
    } catch {
      continue; // Unreachable is not "never charged": asked again by the next pass.
    }
    if (result && !result.pending) {
      await settle(ctx, membership, charge, priceOf(level, renew.currency), level.id, result, now);
    } else if (result === null) {
      // Never seen by the provider: closed, and the next attempt tries again.
      await ctx.store.charges.finish(charge.subscriptionId, charge.period, charge.attempt, {
        status: "failed",
        finishedAt: now.toISOString(),
        transactionId: null,
      });
      await ctx.store.memberships.change({
        email: membership.email,
        apply: (c) =>
          c?.autoRenew && c.end === charge.period && c.autoRenew.failedAttempts === charge.attempt
            ? { ...c, autoRenew: { ...c.autoRenew, failedAttempts: charge.attempt + 1, retryAt: null } }
            : null,
      }, now.toISOString());
    }
  }
}

/** The language of the consenting payment (the member's emails are in it), else English. */
async function languageOf(store: Store, transactionId: string): Promise<string> {
  const tx = await store.transactions.get(transactionId);
  const payment = tx?.providerTransactionId
    ? await store.payments.getByProviderRef(tx.provider, tx.providerTransactionId)
    : null;
  return isLang(payment?.language) ? payment.language : FALLBACK_LANG;
}
