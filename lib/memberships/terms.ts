/**
 * What a gift at a membership level does to the donor's membership (issue 27): a pure function of
 * the membership as stored, so storage can apply it in the same atomic step as the payment
 * (`transactions.record`'s `{ membership }`) and ask again after a lost race.
 *
 * A gift buys a period at its level: a one-time gift the level's term (12 months by default), a
 * monthly gift's charge one month. At the moment it is paid (`paidAt`):
 * - **no membership, or a lapsed one** (past its end and its grace): a new term from the payment
 *   (a rolling term; a lapsed member keeps their number);
 * - **the same level** (active or in grace): the term extends from the current end, so an early
 *   renewal loses nothing and a renewal in grace leaves no hole; a monthly gift's next charge
 *   extends its own term by a month (anchored on the term's start, as billing's dates are);
 * - **a higher level** (a higher price): an upgrade applies at once, a new term from the payment;
 *   the term it interrupts ends then, and terms not yet started follow the new one;
 * - **a lower level**: a downgrade applies at the next renewal, a term at the lower level from the
 *   current end.
 *
 * Levels are ranked by their price in dollars (then in shekels) as the museum's settings say now; a
 * level no longer in the settings ranks as the gift's own, so nobody loses time to a removed level.
 *
 * @module
 */
import type { MembershipLevel } from "@/lib/shared/museum.ts";
import {
  type AutoRenewal,
  MAX_MEMBERSHIP_TERMS,
  type Membership,
  type MembershipDraft,
  type MembershipTerm,
  type TermGift,
  type TermKind,
} from "@/lib/storage/membership_types.ts";

/** A paid gift at a level, as the membership sees it. */
export interface LevelGift {
  /** The donor record that paid (the member's name comes from it). */
  donorId: string;
  levelId: number;
  /** When it was paid (its transaction's time), ISO 8601. */
  paidAt: string;
  transactionId: string;
  /** Minor units, in `currency`. */
  amount: number;
  currency: 1 | 2;
  /** The monthly gift it is a charge of, or null for a one-time gift. */
  subscriptionId: string | null;
  /**
   * The card kept for automatic renewal: a gift whose donor consented sets it (a gift without
   * consent leaves the membership's as it is).
   */
  autoRenew?: AutoRenewal;
  /**
   * A gift membership (issue 28): the giver and their reminders choice, kept on the term it buys.
   * `donorId` is then the recipient's record.
   */
  gift?: TermGift;
}

/** What the rules read besides the membership. */
export interface TermRules {
  /** The museum's levels now. */
  levels: readonly MembershipLevel[];
  graceDays: number;
  /** Draws a member number for a new membership. */
  newNumber: () => string;
}

const DAY_MS = 86_400_000;

/**
 * `months` calendar months after `from` (UTC), the day of month kept, or the month's last day when
 * it has fewer (31 January + 1 month = 28 or 29 February), the time of day kept.
 *
 * @example
 * ```ts
 * addMonths("2026-01-31T10:00:00.000Z", 1); // "2026-02-28T10:00:00.000Z"
 * ```
 */
export function addMonths(from: string, months: number): string {
  const f = new Date(from);
  const first = new Date(Date.UTC(f.getUTCFullYear(), f.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(f.getUTCDate(), lastDay));
  first.setUTCHours(f.getUTCHours(), f.getUTCMinutes(), f.getUTCSeconds(), f.getUTCMilliseconds());
  return first.toISOString();
}

/** When a membership ending at `end` lapses: its end plus the grace days. */
export const lapsesAt = (end: string, graceDays: number): string =>
  new Date(Date.parse(end) + graceDays * DAY_MS).toISOString();

/** The term covering `at`, else the last one begun before it (in grace: the last term). */
export function termAt(terms: readonly MembershipTerm[], at: string): MembershipTerm | undefined {
  return terms.findLast((t) => t.start <= at) ?? terms[0];
}

/** -1, 0 or 1: how level `a` ranks against level `b` (0 when either is unknown). */
function compareLevels(levels: readonly MembershipLevel[], a: number, b: number): number {
  const la = levels.find((l) => l.id === a);
  const lb = levels.find((l) => l.id === b);
  if (a === b || !la || !lb) return 0;
  const diff = la.price.dollars - lb.price.dollars || la.price.nis - lb.price.nis;
  return Math.sign(diff);
}

/** A term of `gift` from `start`, `months` long. */
function newTerm(gift: LevelGift, start: string, months: number, kind: TermKind): MembershipTerm {
  return {
    levelId: gift.levelId,
    start,
    end: addMonths(start, months),
    kind,
    transactionId: gift.transactionId,
    subscriptionId: gift.subscriptionId,
    amount: gift.amount,
    currency: gift.currency,
    charges: 1,
    ...(gift.gift ? { gift: gift.gift } : {}),
  };
}

/** `terms` with `term` begun at `at`: the one covering `at` ends then, later ones follow `term`. */
function upgraded(terms: MembershipTerm[], term: MembershipTerm, at: string): MembershipTerm[] {
  const before = terms.filter((t) => t.start < at).map((t) => (t.end > at ? { ...t, end: at } : t));
  let next = term.end;
  const after = terms.filter((t) => t.start >= at).map((t) => {
    const length = Date.parse(t.end) - Date.parse(t.start);
    const moved = { ...t, start: next, end: new Date(Date.parse(next) + length).toISOString() };
    next = moved.end;
    return moved;
  });
  return [...before, term, ...after];
}

/**
 * The membership after `gift`, from `current` (null: none yet), by the rules of the module header;
 * null when the gift is already in it (its transaction names a term).
 *
 * @example
 * ```ts
 * const draft = applyGift(null, gift, { levels, graceDays: 30, newNumber: newMemberNumber });
 * draft.terms[0].kind; // "join"
 * ```
 */
export function applyGift(
  current: Membership | null,
  gift: LevelGift,
  rules: TermRules,
): MembershipDraft | null {
  if (current?.terms.some((t) => t.transactionId === gift.transactionId)) return null;
  const level = rules.levels.find((l) => l.id === gift.levelId);
  const months = gift.subscriptionId !== null ? 1 : level?.termMonths ?? 12;
  const number = current?.number ?? rules.newNumber();
  // A new monthly gift is what keeps the membership going now; a one-time gift leaves it be.
  const subscriptionId = gift.subscriptionId ?? current?.subscriptionId ?? null;
  const draft = (terms: MembershipTerm[], donorId = current!.donorId): MembershipDraft => ({
    number,
    donorId,
    subscriptionId,
    terms: terms.slice(-MAX_MEMBERSHIP_TERMS),
    ...(gift.autoRenew ? { autoRenew: gift.autoRenew } : {}),
  });
  if (!current || gift.paidAt >= lapsesAt(current.end, rules.graceDays)) {
    // Whoever joins names the member; a gift from the same address later (anyone can type it)
    // renews the membership but does not rename it.
    return draft([...(current?.terms ?? []), newTerm(gift, gift.paidAt, months, "join")], gift.donorId);
  }
  const terms = [...current.terms];
  const last = terms.at(-1)!;
  const rank = compareLevels(rules.levels, gift.levelId, termAt(terms, gift.paidAt)!.levelId);
  if (rank > 0) return draft(upgraded(terms, newTerm(gift, gift.paidAt, months, "upgrade"), gift.paidAt));
  if (
    gift.subscriptionId !== null && last.subscriptionId === gift.subscriptionId &&
    last.levelId === gift.levelId
  ) {
    // The monthly gift's next charge: its term grows by a month, from the term's own start.
    terms[terms.length - 1] = {
      ...last,
      end: addMonths(last.start, last.charges + 1),
      transactionId: gift.transactionId,
      amount: gift.amount,
      currency: gift.currency,
      charges: last.charges + 1,
    };
    return draft(terms);
  }
  const kind: TermKind = rank < 0 ? "downgrade" : gift.subscriptionId !== null ? "monthly" : "renewal";
  return draft([...terms, newTerm(gift, current.end, months, kind)]);
}
