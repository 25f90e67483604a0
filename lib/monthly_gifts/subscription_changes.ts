/**
 * A donor's changes to a monthly gift (issue 15): a new amount from the next charge on, a pause of
 * one to three months, skipping the next charge, resuming, and cancelling with an optional reason.
 *
 * Each change is read-decide-write over the subscription's `version`
 * (`subscriptions.updateIfVersion`), with its confirmation email enqueued in the same atomic step,
 * so on every backend and across instances:
 * - a change and a charge never both win wrongly: billing marks a charge over the version it read
 *   (`charging`), so a change written first makes that pass charge nothing, and a change is refused
 *   ({@link ChargeInProgressError}) while a charge is marked; a cancel is never refused (the charge
 *   in flight settles, the gift stops after it);
 * - a change that lost a race to another write is decided again on what is stored now;
 * - every change is idempotent: it says the state wanted (this amount, paused until n months after
 *   the pause's first period, this period skipped), and asking again for what already holds changes
 *   and sends nothing.
 *
 * A pause keeps its first left-out period in `pausedFrom` and moves `nextPaymentDate` to the resume
 * date; a skip is a pause of the one period named. Resuming gives back the paused periods not yet
 * due (a period whose date passed during the pause stays skipped: the donor asked for that).
 * Billing charges the resume date's period once, then monthly, and clears `pausedFrom`.
 *
 * Ownership is the caller's: each function takes the donor ids the signed-in donor may act for and
 * answers {@link NoSuchGiftError} for any other gift, as for an unknown one.
 *
 * @module
 */
import { DomainError } from "@/lib/core/errors.ts";
import { isDonorOf } from "@/lib/donors/mod.ts";
import type { MessageInput } from "@/lib/storage/message_types.ts";
import { MIN_AMOUNT, toMinor } from "@/lib/shared/money.ts";
import { isoInstant } from "@/lib/storage/records.ts";
import type { Store, Subscription, SubscriptionChanges } from "@/lib/storage/types.ts";
import { nextMonth } from "./billing_dates.ts";

/** The reasons a donor may give for cancelling (stored as is; the back office counts them). */
export const CANCEL_REASONS = [
  "too-expensive",
  "financial-change",
  "prefer-one-time",
  "moved-away",
  "unhappy",
  "other",
] as const;
export type CancelReason = typeof CANCEL_REASONS[number];

/** How many months a pause may last. */
export const PAUSE_MONTHS = [1, 2, 3] as const;

/** Any refused change of a monthly gift. */
export class GiftChangeError extends DomainError {}

/**
 * A raised amount asked for by a session that may not raise it (a manage link's, issue 23): the
 * donor signs in by a one-time link first (`lib/donor_portal/access.ts`).
 */
export class RaiseNeedsSignInError extends GiftChangeError {
  override readonly kind = "forbidden";
  constructor() {
    super("Raising a monthly gift's amount needs a fresh sign-in");
  }
}

/** No monthly gift with this id among the donor's (unknown, or someone else's). */
export class NoSuchGiftError extends GiftChangeError {
  override readonly kind = "not_found";
  constructor() {
    super("No monthly gift with this id");
  }
}

/** The gift has ended (cancelled, or failed after every retry): it can no longer be changed. */
export class GiftEndedError extends GiftChangeError {
  override readonly kind = "conflict";
  constructor() {
    super("This monthly gift has ended and can no longer be changed");
  }
}

/** A charge of the gift is being made right now; the change can be asked again in a few minutes. */
export class ChargeInProgressError extends GiftChangeError {
  override readonly kind = "conflict";
  constructor() {
    super("A charge of this monthly gift is in progress; please try again in a few minutes");
  }
}

/** The change's input breaks a rule (amount out of range, pause length, unknown reason...). */
export class InvalidGiftChangeError extends GiftChangeError {
  override readonly kind = "invalid";
  constructor(message: string, path: string, why: string) {
    super(message, [{ path, message: why }]);
  }
}

/** What a change needs: the store, the donation form's largest amount (major units) and a clock. */
export interface GiftChangeContext {
  store: Store;
  /** The donation form's maximum (`config.payments.maxAmount`, major units). */
  maxAmount: number;
  now?: () => Date;
}

/** A change's answer: the gift as stored, and whether this call changed it (false: already so). */
export interface GiftChangeResult {
  subscription: Subscription;
  changed: boolean;
}

/**
 * Which gift, for whom: `email` is the signed-in donor's address. The gift is theirs when its donor
 * record has that address (the record's own email, `isDonorOf`), whatever other records the address has,
 * and, with `donorId`, is that record's.
 */
export interface GiftRef {
  subscriptionId: string;
  email: string;
  /**
   * The one donor record the session reaches, when it is narrower than the address (a manage link's,
   * `lib/donor_portal/access.ts`): the gift must be that record's.
   */
  donorId?: string;
  /**
   * Whether the amount may go up (false for a manage link's session, `lib/donor_portal/access.ts`);
   * decided against the version written, so a racing change cannot slip a raise past it.
   */
  mayRaise?: boolean;
}

/** The gift `ref` names when it is the signed-in address's (and the ref's record's), else {@link NoSuchGiftError}. */
export async function ownGift(store: Store, ref: GiftRef): Promise<Subscription> {
  const sub = await store.subscriptions.get(ref.subscriptionId);
  if (!sub || (ref.donorId !== undefined && sub.donorId !== ref.donorId)) throw new NoSuchGiftError();
  if (!await isDonorOf(store, sub.donorId, ref.email)) throw new NoSuchGiftError();
  return sub;
}

/** Writes lost to racing writes before a change gives up (each loss re-reads and decides again). */
const MAX_TRIES = 8;

/** The first period from `from` (stepping monthly on the gift's day) due after `now`. */
function firstAfter(from: string, now: string, anchor: string, limit?: string): string {
  let p = from;
  while (p <= now && (limit === undefined || p < limit)) p = nextMonth(p, anchor);
  return p;
}

/** Whether the gift is paused at `now`: a pause recorded and its resume date still ahead. */
const isPaused = (sub: Subscription, now: string) => sub.pausedFrom !== null && sub.nextPaymentDate > now;

type Plan = (sub: Subscription, now: string) => SubscriptionChanges | null;

/** Reads, decides with `plan` (null: nothing to do) and writes over the version read, with `message`. */
async function change(
  ctx: GiftChangeContext,
  ref: GiftRef,
  plan: Plan,
  message: (after: Subscription, now: string) => MessageInput,
  options: { whileCharging?: boolean; whenEnded?: Subscription["status"] } = {},
): Promise<GiftChangeResult> {
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const sub = await ownGift(ctx.store, ref);
    if (sub.status !== "active") {
      if (sub.status === options.whenEnded) return { subscription: sub, changed: false };
      throw new GiftEndedError();
    }
    if (sub.charging !== null && !options.whileCharging) throw new ChargeInProgressError();
    const now = (ctx.now?.() ?? new Date()).toISOString();
    const changes = plan(sub, now);
    if (changes === null) return { subscription: sub, changed: false };
    const after = { ...sub, ...changes, version: sub.version + 1 };
    const updated = await ctx.store.subscriptions.updateIfVersion(sub.id, sub.version, changes, {
      messages: [message(after, now)],
    });
    if (updated) {
      await mirrorOnDonor(ctx.store, updated);
      return { subscription: updated, changed: true };
    }
  }
  throw new ChargeInProgressError();
}

/** Keeps the donor record's summary (next charge; whether a monthly gift is active) in step. */
async function mirrorOnDonor(store: Store, sub: Subscription): Promise<void> {
  const active = (await store.subscriptions.listByDonor(sub.donorId)).filter((s) => s.status === "active");
  if (active.length === 0) {
    await store.donors.update(sub.donorId, { monthlyPaymentAvailable: false, nextPaymentDate: null });
    return;
  }
  const next = active.map((s) => s.nextPaymentDate).sort()[0];
  await store.donors.update(sub.donorId, { nextPaymentDate: next });
}

/** The `monthly-changed` confirmation of `change`, keyed by the version it made (one per change). */
const changedMessage = (change: "amount" | "pause" | "skip" | "resume") => (after: Subscription) => ({
  key: `gift-changed:${after.id}:${after.version}`,
  kind: "monthly-changed" as const,
  to: { donorId: after.donorId },
  language: after.language,
  data: {
    subscriptionId: after.id,
    change,
    amount: after.amount,
    currency: after.currency,
    nextPaymentDate: after.nextPaymentDate,
  },
});

/**
 * Sets the gift's amount (major units, as the donation form takes it: the same minimum and maximum,
 * at most two decimals) from its next charge on.
 *
 * @example
 * ```ts
 * await changeAmount({ store, maxAmount: 100_000 }, { subscriptionId, email: session.email }, 75);
 * ```
 */
export async function changeAmount(
  ctx: GiftChangeContext,
  ref: GiftRef,
  amount: number,
): Promise<GiftChangeResult> {
  if (typeof amount !== "number" || !Number.isFinite(amount) || amount < MIN_AMOUNT) {
    throw new InvalidGiftChangeError(`The amount must be at least ${MIN_AMOUNT}`, "amount", "too small");
  }
  if (amount > ctx.maxAmount) {
    throw new InvalidGiftChangeError(`The amount must be at most ${ctx.maxAmount}`, "amount", "too large");
  }
  const minor = toMinor(amount);
  if (minor === null) {
    throw new InvalidGiftChangeError("The amount must have at most two decimals", "amount", "not money");
  }
  return await change(
    ctx,
    ref,
    (sub) => {
      if (minor > sub.amount && ref.mayRaise === false) throw new RaiseNeedsSignInError();
      return sub.amount === minor ? null : { amount: minor };
    },
    changedMessage("amount"),
  );
}

/**
 * Pauses the gift for `months` (1, 2 or 3) charges counted from the first one it leaves out; asked
 * again while paused, the length is counted from that same first period (so a repeat changes
 * nothing, and 3 after 1 lengthens the pause to three months).
 */
export async function pauseGift(
  ctx: GiftChangeContext,
  ref: GiftRef,
  months: number,
): Promise<GiftChangeResult> {
  if (!(PAUSE_MONTHS as readonly number[]).includes(months)) {
    throw new InvalidGiftChangeError("A pause lasts 1, 2 or 3 months", "months", "not 1, 2 or 3");
  }
  return await change(ctx, ref, (sub, now) => {
    const from = isPaused(sub, now) ? sub.pausedFrom! : sub.nextPaymentDate;
    let until = from;
    for (let i = 0; i < months; i++) until = nextMonth(until, sub.createdAt);
    until = firstAfter(until, now, sub.createdAt);
    if (sub.pausedFrom === from && sub.nextPaymentDate === until) return null;
    return { pausedFrom: from, nextPaymentDate: until, failedAttempts: 0, retryAt: null };
  }, changedMessage("pause"));
}

/**
 * Skips the charge of `period` (the next charge date the donor was shown): not charged, not retried.
 * Once the gift is past that period (skipped already, or charged) nothing changes.
 */
export async function skipNextCharge(
  ctx: GiftChangeContext,
  ref: GiftRef,
  period: string,
): Promise<GiftChangeResult> {
  let wanted: string;
  try {
    wanted = isoInstant(period, "period");
  } catch {
    throw new InvalidGiftChangeError("The charge to skip must be a date", "period", "not a date");
  }
  return await change(ctx, ref, (sub, now) => {
    if (sub.nextPaymentDate > wanted) return null;
    if (sub.nextPaymentDate < wanted) {
      throw new InvalidGiftChangeError(
        "Only the next charge can be skipped",
        "period",
        "not the next charge",
      );
    }
    return {
      pausedFrom: isPaused(sub, now) ? sub.pausedFrom : sub.nextPaymentDate,
      nextPaymentDate: firstAfter(nextMonth(wanted, sub.createdAt), now, sub.createdAt),
      failedAttempts: 0,
      retryAt: null,
    };
  }, changedMessage("skip"));
}

/** Ends a pause or skip now: the paused periods not yet due are charged again. */
export async function resumeGift(ctx: GiftChangeContext, ref: GiftRef): Promise<GiftChangeResult> {
  return await change(ctx, ref, (sub, now) => {
    if (!isPaused(sub, now)) return null;
    return {
      pausedFrom: null,
      nextPaymentDate: firstAfter(sub.pausedFrom!, now, sub.createdAt, sub.nextPaymentDate),
    };
  }, changedMessage("resume"));
}

/**
 * Cancels the gift, keeping the donor's reason (one of {@link CANCEL_REASONS}, or none). Never
 * refused for a charge in flight: that charge settles, nothing after it. Cancelled again: no change.
 */
export async function cancelGift(
  ctx: GiftChangeContext,
  ref: GiftRef,
  reason: string | null,
): Promise<GiftChangeResult> {
  if (reason !== null && !(CANCEL_REASONS as readonly string[]).includes(reason)) {
    throw new InvalidGiftChangeError("Unknown reason for cancelling", "reason", "unknown reason");
  }
  return await change(
    ctx,
    ref,
    (_, now) => ({ status: "cancelled", cancelledAt: now, cancelReason: reason }),
    (after, now) => ({
      key: `gift-cancelled:${after.id}`,
      kind: "monthly-cancelled",
      to: { donorId: after.donorId },
      language: after.language,
      data: { at: now },
    }),
    { whileCharging: true, whenEnded: "cancelled" },
  );
}
