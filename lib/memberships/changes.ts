/**
 * The membership changes that payments carry into storage (`transactions.record`'s
 * `{ membership }`), built where a payment is recorded: a successful gift at a level
 * (`donations/completion.ts`, kiosk sales through it) and a monthly gift's successful charge
 * (`monthly_gifts/billing.ts`). Each is applied in the same atomic step as its transaction, only
 * when the transaction is new, so a payment recorded twice never extends a membership twice. A
 * declined charge, a cancelled or failed monthly gift change nothing stored: the state reads them
 * from billing (`state.ts`).
 *
 * @module
 */
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import type { MembershipChange, Store, Subscription } from "@/lib/storage/types.ts";
import { DEFAULT_GRACE_DAYS } from "./config.ts";
import { newMemberNumber } from "./numbers.ts";
import { applyGift, type LevelGift, type TermRules } from "./terms.ts";

/** What building a change reads: the store (the museum's levels) and the grace days. */
export interface MembershipContext {
  store: Store;
  /** Days of grace after a membership's end (`MEMBERSHIP_GRACE_DAYS`); 30 when not given. */
  graceDays?: number;
}

async function rules(ctx: MembershipContext): Promise<TermRules> {
  const { levels } = await readMuseumSettings(ctx.store);
  return { levels, graceDays: ctx.graceDays ?? DEFAULT_GRACE_DAYS, newNumber: newMemberNumber };
}

/**
 * The change a successful gift at a level makes to the membership of `email` (the donor's address).
 *
 * @example
 * ```ts
 * const membership = await levelGiftChange({ store }, donor.email, gift);
 * await store.transactions.record(tx, { messages, membership });
 * ```
 */
export async function levelGiftChange(
  ctx: MembershipContext,
  email: string,
  gift: LevelGift,
): Promise<MembershipChange> {
  const read = await rules(ctx);
  return { email, apply: (current) => applyGift(current, gift, read) };
}

/**
 * The change a monthly gift's successful charge makes: the next month of the membership it keeps
 * (at the level of its own latest term), or undefined when it keeps none (a gift not at a level, or
 * one a later monthly gift replaced), so a plain monthly donation costs one read.
 *
 * @example
 * ```ts
 * const membership = await monthlyChargeChange({ store }, sub, donor.email, { transactionId, paidAt, amount, currency });
 * ```
 */
export async function monthlyChargeChange(
  ctx: MembershipContext,
  sub: Pick<Subscription, "id" | "donorId">,
  email: string,
  charge: Pick<LevelGift, "transactionId" | "paidAt" | "amount" | "currency">,
): Promise<MembershipChange | undefined> {
  const kept = await ctx.store.memberships.get(email);
  const term = kept?.subscriptionId === sub.id
    ? kept.terms.findLast((t) => t.subscriptionId === sub.id)
    : undefined;
  if (!term) return undefined;
  const gift: LevelGift = { ...charge, donorId: sub.donorId, levelId: term.levelId, subscriptionId: sub.id };
  const read = await rules(ctx);
  // Asked again over the record as stored: only while this gift still keeps the membership.
  return {
    email,
    apply: (current) => current?.subscriptionId === sub.id ? applyGift(current, gift, read) : null,
  };
}

/** An automatic renewal's charge at a membership's end `end`, as its change sees it. */
export interface AutoRenewalCharge {
  /** The membership's end the charge renews (its term end: the charge's key). */
  end: string;
  /** The level charged (the last term's). */
  levelId: number;
  transactionId: string;
  paidAt: string;
  amount: number;
  currency: 1 | 2;
  /** Declined: when it is tried again, or null when that was the last try (auto-renewal stops). */
  retryAt: string | null;
}

/**
 * The change an automatic renewal's charge makes, in the same atomic step as its transaction: a
 * success renews the membership at its level from its end (a "renewal" term) and keeps auto-renewal
 * on with its count of declines cleared; a decline counts one more (with when it is tried again), or
 * turns auto-renewal off and drops its token after the last try. Asked again over the record as
 * stored: a decline changes nothing once the end moved or auto-renewal is off.
 *
 * @example
 * ```ts
 * const membership = await autoRenewalChange({ store }, email, true, charge);
 * ```
 */
export async function autoRenewalChange(
  ctx: MembershipContext,
  email: string,
  success: boolean,
  charge: AutoRenewalCharge,
): Promise<MembershipChange> {
  const read = await rules(ctx);
  return {
    email,
    apply(current) {
      if (!current) return null;
      const kept = {
        number: current.number,
        donorId: current.donorId,
        subscriptionId: current.subscriptionId,
        terms: current.terms,
      };
      const renew = current.autoRenew;
      if (success) {
        const draft = applyGift(current, {
          donorId: current.donorId,
          levelId: charge.levelId,
          paidAt: charge.paidAt,
          transactionId: charge.transactionId,
          amount: charge.amount,
          currency: charge.currency,
          subscriptionId: null,
        }, read);
        return draft && renew
          ? { ...draft, autoRenew: { ...renew, failedAttempts: 0, retryAt: null } }
          : draft;
      }
      if (!renew || current.end !== charge.end) return null;
      return {
        ...kept,
        autoRenew: charge.retryAt === null
          ? null
          : { ...renew, failedAttempts: renew.failedAttempts + 1, retryAt: charge.retryAt },
      };
    },
  };
}
