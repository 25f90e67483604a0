/**
 * The renewal pass (issue 27, item 5), a scheduled job: finds memberships by their end
 * (`store.memberships.listByEnd`) and enqueues, for each,
 * - a **reminder** on each of the reminder days before its end (`MEMBERSHIP_REMINDER_DAYS`, 30, 7
 *   and 0 by default; counted in UTC days: the 7-day one is due from the start of the UTC day a
 *   week before the end's day, the 0-day one on the end's own day);
 * - the **lapse** email once its grace is over and it is lapsed (`MEMBERSHIP_GRACE_DAYS`);
 * - one **win-back** email {@link WINBACK_DAYS} after that.
 *
 * Exactly once across instances: each message's key is made of the membership's number (never
 * changed, one per email), its end and which email it is ({@link renewalMessageKey}), and the
 * outbox stores a key once, ever; a lease lets one instance do the pass at a time, so the others do
 * not repeat its reads. A run that was missed is made up by the next within {@link CATCH_UP_DAYS}
 * (never reaching back to the window of the next reminder, so a late 30-day reminder is not sent
 * beside the 7-day one). A renewal moves the end, so the old end's emails are no longer found, and
 * the ones already queued are skipped when sent (`isRenewalStillDue`, read again from storage).
 *
 * A member whom an active monthly gift keeps is not reminded: each charge extends the membership,
 * and billing's own emails say when a charge fails. A gift membership's reminders (issue 28) go to
 * the giver, the recipient or both, as the giver chose (`TermGift.reminders`); the giver's copy has
 * its own key (`…:giver`).
 *
 * A member with automatic renewal on (`membership.autoRenew`) gets, instead of the reminders, the
 * **notice** {@link AUTO_RENEW_NOTICE_DAYS} days before the charge at the end (whatever
 * `MEMBERSHIP_REMINDER_DAYS` says): what will be charged, when, to which card, and the link that
 * turns it off. A reminder would tell them to renew by hand, and paying by hand as well would buy a
 * second year. If auto-renewal is off by the time a reminder is due, the reminders go out as usual.
 *
 * @module
 */
import type { Logger } from "@/lib/core/log.ts";
import { FALLBACK_LANG, isLang } from "@/lib/shared/languages.ts";
import type { Membership, MessageInput, Store, Subscription } from "@/lib/storage/types.ts";
import { DEFAULT_GRACE_DAYS, DEFAULT_REMINDER_DAYS } from "./config.ts";
import { membershipState } from "./state.ts";

/** Days after the lapse that the one win-back email goes out. */
export const WINBACK_DAYS = 30;
/** How many days back a run makes up for runs that did not happen. */
export const CATCH_UP_DAYS = 3;

const DAY_MS = 86_400_000;
const LEASE = "membership renewals";
const LEASE_MS = 10 * 60_000;
const PAGE = 200;
const ENQUEUE_BATCH = 100;

/** What the pass needs. */
export interface RenewalPassContext {
  store: Store;
  log: Logger;
  /** This runner's name in the lease. */
  holder: string;
  /** The clock; tests set it. */
  now?: () => Date;
  /** `MEMBERSHIP_REMINDER_DAYS`; 30, 7 and 0 when not given. */
  reminderDays?: readonly number[];
  /** `MEMBERSHIP_GRACE_DAYS`; 30 when not given. */
  graceDays?: number;
}

/** Which renewal email: a reminder `days` before the end, the lapse or the win-back. */
export type RenewalEmail = { kind: "membership-reminder"; days: number } | {
  kind: "membership-lapsed" | "membership-winback" | "membership-autorenew-notice";
};

/** Days before an automatic renewal's charge that its notice goes out. */
export const AUTO_RENEW_NOTICE_DAYS = 7;

/**
 * The key of a membership's renewal email for its end: once per membership, end and email.
 *
 * @example
 * ```ts
 * renewalMessageKey("7KQ3-9DXM", "2027-03-10T09:00:00.000Z", { kind: "membership-reminder", days: 7 });
 * // "membership-reminder:7KQ3-9DXM:2027-03-10T09:00:00.000Z:7"
 * ```
 */
export function renewalMessageKey(number: string, end: string, email: RenewalEmail): string {
  const base = `${email.kind}:${number}:${end}`;
  return email.kind === "membership-reminder" ? `${base}:${email.days}` : base;
}

/**
 * Whether a renewal email about the membership's end `end` is still worth sending: the membership
 * exists (not erased), still ends then (not renewed meanwhile), and no active monthly gift keeps it.
 *
 * @example
 * ```ts
 * isRenewalStillDue(await store.memberships.get(email), data.end, billing);
 * ```
 */
export function isRenewalStillDue(
  membership: Membership | null,
  end: string,
  billing: Pick<Subscription, "id" | "status"> | null,
): boolean {
  if (!membership || membership.end !== end) return false;
  const keptMonthly = billing !== null && billing.status === "active" &&
    billing.id === membership.subscriptionId && membership.terms.at(-1)?.subscriptionId === billing.id;
  return !keptMonthly;
}

/** The UTC day's start of `ms`. */
const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;

/** What one search of the pass looks for: ends in a range, and the email due for each. */
interface Search {
  from: number;
  to: number;
  email: RenewalEmail;
}

/** Every search at `now`: one per reminder day, the lapses and the win-backs. */
function searches(now: number, reminderDays: readonly number[], graceDays: number): Search[] {
  const days = [...reminderDays].sort((a, b) => b - a);
  const found: Search[] = days.map((d, i) => {
    // Due from the start of the UTC day `d` days before the end's day.
    const to = dayStart(now) + (d + 1) * DAY_MS;
    const span = Math.max(1, Math.min(CATCH_UP_DAYS, i + 1 < days.length ? d - days[i + 1] : CATCH_UP_DAYS));
    return { from: to - span * DAY_MS, to, email: { kind: "membership-reminder", days: d } };
  });
  const notice = dayStart(now) + (AUTO_RENEW_NOTICE_DAYS + 1) * DAY_MS;
  found.push({
    from: notice - CATCH_UP_DAYS * DAY_MS,
    to: notice,
    email: { kind: "membership-autorenew-notice" },
  });
  const lapsed = now - graceDays * DAY_MS;
  const winback = lapsed - WINBACK_DAYS * DAY_MS;
  found.push(
    { from: lapsed - CATCH_UP_DAYS * DAY_MS, to: lapsed, email: { kind: "membership-lapsed" } },
    { from: winback - CATCH_UP_DAYS * DAY_MS, to: winback, email: { kind: "membership-winback" } },
  );
  return found;
}

/**
 * The languages of a membership's emails, to the member and to a gift's giver: its last term's
 * payment's (a gift membership's: the one the giver chose for the recipient), else its monthly
 * gift's, else English.
 */
async function languagesOf(store: Store, membership: Membership): Promise<{ member: string; giver: string }> {
  const tx = await store.transactions.get(membership.terms.at(-1)?.transactionId ?? "");
  const payment = tx?.providerTransactionId
    ? await store.payments.getByProviderRef(tx.provider, tx.providerTransactionId)
    : null;
  const sub = payment ? null : await store.subscriptions.get(membership.subscriptionId ?? "");
  const language = payment?.language ?? sub?.language;
  const giver = isLang(language) ? language : FALLBACK_LANG;
  const chosen = payment?.gift?.language;
  return { member: isLang(chosen) ? chosen : giver, giver };
}

/**
 * Who gets the renewal email: the member; a reminder of a gift membership's term (issue 28), the
 * giver, the recipient or both, as the giver chose (the lapse and the win-back are the member's).
 */
function recipientsOf(membership: Membership, email: RenewalEmail): { donorId: string; giver: boolean }[] {
  const gift = membership.terms.at(-1)?.gift;
  const member = { donorId: membership.donorId, giver: false };
  if (email.kind !== "membership-reminder" || !gift || gift.reminders === "recipient") return [member];
  const giver = { donorId: gift.giverDonorId, giver: true };
  return gift.reminders === "giver" ? [giver] : [member, giver];
}

/** The messages of `email` for `membership` at `now`; none when none is due. */
async function messagesFor(
  ctx: RenewalPassContext,
  membership: Membership,
  email: RenewalEmail,
  now: Date,
): Promise<MessageInput[]> {
  const billing = membership.subscriptionId
    ? await ctx.store.subscriptions.get(membership.subscriptionId)
    : null;
  if (!isRenewalStillDue(membership, membership.end, billing)) return [];
  // Auto-renewing: the notice instead of the reminders; no notice once it is off.
  const autoRenewing = membership.autoRenew !== undefined;
  if (email.kind === "membership-reminder" && autoRenewing) return [];
  if (email.kind === "membership-autorenew-notice" && !autoRenewing) return [];
  const graceDays = ctx.graceDays ?? DEFAULT_GRACE_DAYS;
  const ending = email.kind === "membership-lapsed" || email.kind === "membership-winback";
  if (ending && membershipState(membership, now, billing, graceDays) !== "lapsed") {
    return [];
  }
  const languages = await languagesOf(ctx.store, membership);
  const about = { email: membership.email, end: membership.end };
  return recipientsOf(membership, email).map(({ donorId, giver }) => {
    const key = renewalMessageKey(membership.number, membership.end, email);
    // The giver's copy: a key of its own, so each is enqueued once.
    const common = {
      key: giver ? `${key}:giver` : key,
      to: { donorId },
      language: giver ? languages.giver : languages.member,
    };
    return email.kind === "membership-reminder"
      ? { ...common, kind: email.kind, data: { ...about, days: email.days } }
      : { ...common, kind: email.kind, data: about };
  });
}

/**
 * One pass: enqueues every renewal email due at `now` that was not enqueued before. Answers how
 * many were new, or null when another instance holds the pass's lease.
 *
 * @example
 * ```ts
 * await runRenewalPass({ store, log, holder: `${Deno.hostname()}-${Deno.pid}`, reminderDays: [30, 7, 0] });
 * ```
 */
export async function runRenewalPass(ctx: RenewalPassContext): Promise<number | null> {
  const { store, holder } = ctx;
  const now = ctx.now?.() ?? new Date();
  if (!await store.leases.acquire(LEASE, holder, now.getTime(), LEASE_MS)) return null;
  let enqueued = 0;
  try {
    const graceDays = ctx.graceDays ?? DEFAULT_GRACE_DAYS;
    for (const search of searches(now.getTime(), ctx.reminderDays ?? DEFAULT_REMINDER_DAYS, graceDays)) {
      const range = { from: new Date(search.from).toISOString(), to: new Date(search.to).toISOString() };
      let after: Membership | null = null;
      do {
        const page: Membership[] = await store.memberships.listByEnd(range, PAGE, after);
        const messages: MessageInput[] = [];
        for (const membership of page) {
          messages.push(...await messagesFor(ctx, membership, search.email, now));
        }
        // The outbox takes at most ENQUEUE_BATCH a call (a page of 200 can hold more, a gift's two each).
        for (let i = 0; i < messages.length; i += ENQUEUE_BATCH) {
          enqueued += await store.outbox.enqueue(messages.slice(i, i + ENQUEUE_BATCH), now.toISOString());
        }
        after = page.length === PAGE ? page[PAGE - 1] : null;
      } while (after);
    }
  } finally {
    await store.leases.release(LEASE, holder);
  }
  if (enqueued > 0) ctx.log.info("membership renewal emails enqueued", { count: enqueued });
  return enqueued;
}
