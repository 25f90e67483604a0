/**
 * The overview's parts that ask for someone: monthly charges failing, refunds pending, email in
 * trouble, accounts waiting for approval, kiosks not seen for a day. Each reads one bounded index
 * (the due gifts up to a week ahead, the pending refunds, the week's messages, the pending admins,
 * the handful of kiosks) and counts at most {@link OVERVIEW_LIST_CAP} records.
 *
 * @module
 */
import { addDays, dayOf, dayStart } from "@/lib/core/zoned_time.ts";
import { lastSeenAt, unseenDevices } from "@/lib/kiosk/mod.ts";
import { RETRY_DAYS } from "@/lib/monthly_gifts/mod.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import {
  OVERVIEW_LIST_CAP,
  type OverviewApprovals,
  type OverviewEmail,
  type OverviewKiosks,
  type OverviewMonthlyFailing,
  type OverviewRefunds,
} from "@/lib/shared/overview.ts";
import { subscriptionDueAt } from "@/lib/storage/records.ts";
import type { Store } from "@/lib/storage/types.ts";
import { sumPerCurrency } from "./gifts.ts";
import { approvalsHref, emailHref, kiosksHref, transactionsHref } from "./links.ts";

const DAY_MS = 86_400_000;
/** How many retrying gifts and unseen kiosks the overview names. */
export const SHOWN = 3;
/** The days of email counted: today and the six before it. */
export const EMAIL_DAYS = 7;

/** What these parts read: the store, the museum's zone, the time, the links' language. */
export interface AttentionContext {
  store: Store;
  timeZone: string;
  now: Date;
  lang: Lang;
}

/**
 * The monthly gifts whose last charge was declined and that billing will charge again: due (the
 * retry's time) at most the longest retry delay ahead, so one range of the due index finds them
 * all. The link opens their failed charges: monthly failures from the earliest due date of the
 * month they are failing in, to today.
 */
export async function monthlyFailing(ctx: AttentionContext): Promise<OverviewMonthlyFailing> {
  const until = new Date(ctx.now.getTime() + (Math.max(...RETRY_DAYS) + 1) * DAY_MS).toISOString();
  const found = await ctx.store.subscriptions.listRetrying(until, OVERVIEW_LIST_CAP + 1);
  const gifts = found.slice(0, OVERVIEW_LIST_CAP);
  const today = dayOf(ctx.now, ctx.timeZone);
  const earliest = gifts.map((s) => dayOf(s.nextPaymentDate, ctx.timeZone)).sort()[0] ?? today;
  const from = earliest < today ? earliest : today;
  return {
    count: gifts.length,
    capped: found.length > OVERVIEW_LIST_CAP,
    next: gifts.slice(0, SHOWN).map((s) => ({
      nextTryAt: subscriptionDueAt(s),
      failedAttempts: s.failedAttempts,
      amount: s.amount,
      currency: s.currency,
    })),
    href: transactionsHref(ctx.lang, { type: "error", payment: "monthly", from, to: today }),
  };
}

/**
 * Refunds waiting for the provider's answer (asked, not yet succeeded or failed): their count and
 * sums, read from the pending refunds' own index.
 */
export async function refundsPending(ctx: AttentionContext): Promise<OverviewRefunds> {
  // Asked before a day from now: every pending one, also from an instance whose clock runs ahead.
  const before = new Date(ctx.now.getTime() + DAY_MS).toISOString();
  const found = await ctx.store.refunds.listPending(before, OVERVIEW_LIST_CAP + 1);
  const pending = found.slice(0, OVERVIEW_LIST_CAP);
  return {
    count: pending.length,
    capped: found.length > OVERVIEW_LIST_CAP,
    pending: sumPerCurrency(pending),
    href: transactionsHref(ctx.lang, { type: "success", refund: "pending" }),
  };
}

/** Email enqueued in the last {@link EMAIL_DAYS} museum days that failed for good or waits for a retry. */
export async function emailFailing(ctx: AttentionContext): Promise<OverviewEmail> {
  const since = addDays(dayOf(ctx.now, ctx.timeZone), 1 - EMAIL_DAYS);
  const found = await ctx.store.outbox.listFailing(dayStart(since, ctx.timeZone), OVERVIEW_LIST_CAP + 1);
  const messages = found.slice(0, OVERVIEW_LIST_CAP);
  const failed = messages.filter((m) => m.state === "failed").length;
  return {
    count: messages.length,
    failed,
    retrying: messages.length - failed,
    capped: found.length > OVERVIEW_LIST_CAP,
    since,
    href: emailHref(ctx.lang, since),
  };
}

/** Accounts waiting for an owner's approval. */
export async function approvals(ctx: AttentionContext): Promise<OverviewApprovals> {
  return { count: (await ctx.store.admins.listByStatus("pending")).length, href: approvalsHref(ctx.lang) };
}

/** Paired kiosks with no sale or pairing for a day (`lib/kiosk/`'s rule), longest unseen first. */
export async function kiosksUnseen(ctx: AttentionContext): Promise<OverviewKiosks> {
  const unseen = unseenDevices(await ctx.store.kioskDevices.list(), ctx.now);
  return {
    count: unseen.length,
    devices: unseen.slice(0, SHOWN).map((d) => ({
      name: d.name,
      shopNumber: d.shopNumber,
      lastSeenAt: lastSeenAt(d),
    })),
    href: kiosksHref(ctx.lang),
  };
}
