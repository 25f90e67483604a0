/**
 * The back office's donor view (issue 15): everything under one email address, across all the
 * donor records of that address (a donor who filled in the form several times is one donor here,
 * as in the donor portal): every gift, the lifetime total per currency, the first and last gift,
 * and each monthly gift with its state (active, paused until a date, failing, cancelled with the
 * donor's reason, ended after failed charges). And the count of cancel reasons across all gifts.
 *
 * Every read is an index range (`donors.idsByEmail`, `transactions.listByDonors`,
 * `receipts.listByDonors`, `subscriptions.listByDonor`, `subscriptions.countCancelReasons`): the
 * view costs work in proportion to the donor's own records, never a scan. A donor with more than
 * {@link MAX_VIEW_GIFTS} gifts is shown the newest ones, and the answer says the totals cover only
 * those (`complete: false`).
 *
 * No donor id and no card token is answered: a donor id is the key to the donor's cancel link.
 *
 * @module
 */
import { DomainError } from "@/lib/core/errors.ts";
import { CANCEL_REASONS } from "@/lib/monthly_gifts/subscription_changes.ts";
import { addressRecords } from "./records.ts";
import type { Store, Subscription, Transaction } from "@/lib/storage/types.ts";

/** The most gifts the view lists (newest first): the most one `listByDonors` call answers. */
export const MAX_VIEW_GIFTS = 1_000;

/** No donor record has this email address (the API answers 404). */
export class NoDonorWithEmailError extends DomainError {
  constructor() {
    super("No donor with this email address");
  }
}

/** One donor record of the address, as the donor gave it on the form. */
export interface DonorRecordView {
  firstName: string;
  lastName: string;
  country: string;
  /** ISO 8601. */
  createdAt: string;
}

/** One gift (a successful payment or a declined attempt). */
export interface GiftView {
  /** The transaction's id (the transaction list's rows have it too). */
  id: string;
  createdAt: string;
  status: "success" | "failed";
  statusCode: string;
  isMonthly: boolean;
  /** Minor units, or null when a declined attempt has none. */
  amount: number | null;
  currency: 1 | 2 | null;
  /** Masked card number, when known. */
  card: string | null;
  /** The receipt's number, when one was issued. */
  receiptNumber: string | null;
  /** Why the provider declined, for a failed attempt. */
  errorMessage: string | null;
  /** What was refunded of a successful gift (issue 16), minor units; 0 when nothing was. */
  refunded: number;
}

/** A monthly gift's state, as the back office shows it. */
export type MonthlyState = "active" | "paused" | "failing" | "cancelled" | "failed";

/** One monthly gift. */
export interface MonthlyView {
  state: MonthlyState;
  amount: number;
  currency: 1 | 2;
  createdAt: string;
  /** While it goes on (active, paused, failing): the next charge's date (a pause's resume date). */
  nextCharge: string | null;
  /** Failed attempts of the current period, while failing. */
  failedAttempts: number;
  /** When the next retry is due, while failing. */
  retryAt: string | null;
  /** When it was cancelled. */
  cancelledAt: string | null;
  /** The donor's reason (one of `CANCEL_REASONS`), when cancelled with one. */
  cancelReason: string | null;
  card: string | null;
}

/** One total per currency of the successful gifts. */
export interface CurrencyTotal {
  currency: 1 | 2;
  /** Minor units. */
  amount: number;
  count: number;
}

/** The donor view of one address. */
export interface DonorView {
  email: string;
  donors: DonorRecordView[];
  /** Successful gifts, per currency, ascending by currency code. */
  totals: CurrencyTotal[];
  /** The first and the last successful gift's dates, or null when none succeeded. */
  firstGift: string | null;
  lastGift: string | null;
  /** Newest first. */
  gifts: GiftView[];
  /** Those that go on first (next charge soonest first), then those that ended (latest first). */
  monthly: MonthlyView[];
  /** False when the donor has more gifts than listed: the totals and dates cover the listed ones. */
  complete: boolean;
}

/** A successful gift's amount and currency: the transaction's, else the provider's result. */
function paid(tx: Transaction): { amount: number; currency: 1 | 2 } | null {
  if (tx.kind !== "success") return null;
  const amount = tx.amount ?? Number(tx.resultData?.DebitTotal);
  const currency = tx.currency ?? tx.resultData?.DebitCurrency ?? null;
  return Number.isSafeInteger(amount) && currency !== null ? { amount, currency } : null;
}

/**
 * A monthly gift's state at `now`: ended (cancelled, failed), paused (a pause recorded and its
 * resume date ahead), failing (a declined charge being retried) or active.
 *
 * @example
 * ```ts
 * monthlyState(sub, new Date().toISOString()); // "paused"
 * ```
 */
export function monthlyState(sub: Subscription, now: string): MonthlyState {
  if (sub.status === "cancelled" || sub.status === "failed") return sub.status;
  if (sub.pausedFrom !== null && sub.nextPaymentDate > now) return "paused";
  if (sub.failedAttempts > 0) return "failing";
  return "active";
}

function monthlyView(sub: Subscription, now: string): MonthlyView {
  const state = monthlyState(sub, now);
  const goesOn = state !== "cancelled" && state !== "failed";
  return {
    state,
    amount: sub.amount,
    currency: sub.currency,
    createdAt: sub.createdAt,
    nextCharge: goesOn ? sub.nextPaymentDate : null,
    failedAttempts: state === "failing" ? sub.failedAttempts : 0,
    retryAt: state === "failing" ? sub.retryAt : null,
    cancelledAt: sub.cancelledAt,
    cancelReason: sub.cancelReason,
    card: sub.cardMasked,
  };
}

/** Ongoing gifts first, by next charge; then ended ones, the latest ended (or created) first. */
function monthlyOrder(a: MonthlyView, b: MonthlyView): number {
  if ((a.nextCharge === null) !== (b.nextCharge === null)) return a.nextCharge === null ? 1 : -1;
  if (a.nextCharge !== null && b.nextCharge !== null && a.nextCharge !== b.nextCharge) {
    return a.nextCharge < b.nextCharge ? -1 : 1;
  }
  const ended = (m: MonthlyView) => m.cancelledAt ?? m.createdAt;
  return ended(a) === ended(b) ? 0 : ended(a) < ended(b) ? 1 : -1;
}

/**
 * The donor view of `email` (normalized: trimmed, lower case) at `now`; throws
 * {@link NoDonorWithEmailError} when no donor record has that address.
 *
 * @example
 * ```ts
 * const view = await donorView(store, "ada@example.org");
 * view.totals; // [{ currency: 1, amount: 30000, count: 3 }]
 * ```
 */
export async function donorView(
  store: Pick<Store, "donors" | "transactions" | "receipts" | "subscriptions" | "refunds">,
  email: string,
  now: Date = new Date(),
): Promise<DonorView> {
  const { ids, donors, transactions: txs, receipts, subscriptions } = await addressRecords(
    store,
    email,
    MAX_VIEW_GIFTS,
    true,
  );
  if (ids.length === 0) throw new NoDonorWithEmailError();
  const receiptOf = new Map(receipts.map((r) => [r.transactionId, r.number]));
  // One read for every listed gift's refunds (issue 16).
  const refunds = await store.refunds.totals(txs.filter((tx) => tx.kind === "success").map((tx) => tx.id));
  const totals = new Map<1 | 2, CurrencyTotal>();
  let firstGift: string | null = null;
  let lastGift: string | null = null;
  for (const tx of txs) {
    const money = paid(tx);
    if (!money) continue;
    const total = totals.get(money.currency) ?? { currency: money.currency, amount: 0, count: 0 };
    totals.set(money.currency, { ...total, amount: total.amount + money.amount, count: total.count + 1 });
    // Newest first: the first success seen is the last gift, the last one seen the first gift.
    lastGift ??= tx.createdAt;
    firstGift = tx.createdAt;
  }
  const at = now.toISOString();
  return {
    email,
    donors: donors
      .sort((a, b) => a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0)
      .map((d) => ({
        firstName: d.firstName,
        lastName: d.lastName,
        country: d.country,
        createdAt: d.createdAt,
      })),
    totals: [...totals.values()].sort((a, b) => a.currency - b.currency),
    firstGift,
    lastGift,
    gifts: txs.map((tx): GiftView => {
      const money = paid(tx);
      return {
        id: tx.id,
        createdAt: tx.createdAt,
        status: tx.kind === "success" ? "success" : "failed",
        statusCode: tx.statusCode,
        isMonthly: tx.isMonthly,
        amount: money?.amount ?? tx.amount,
        currency: money?.currency ?? tx.currency,
        card: tx.resultData?.CreditCardNumber || null,
        receiptNumber: receiptOf.get(tx.id) ?? null,
        errorMessage: tx.kind === "success" ? null : tx.errorMessage,
        refunded: refunds.get(tx.id)?.refunded ?? 0,
      };
    }),
    monthly: subscriptions.map((s) => monthlyView(s, at)).sort(monthlyOrder),
    complete: txs.length < MAX_VIEW_GIFTS,
  };
}

/** How many monthly gifts were cancelled with one reason. */
export interface CancelReasonCount {
  reason: string;
  count: number;
}

/**
 * How many monthly gifts were cancelled with each reason: every reason of `CANCEL_REASONS`, in
 * its order (0 when none), then any other reason stored (none today: the donor's form offers only
 * those), and the total.
 *
 * @example
 * ```ts
 * const { reasons, total } = await cancelReasonCounts(store);
 * ```
 */
export async function cancelReasonCounts(
  store: Pick<Store, "subscriptions">,
): Promise<{ reasons: CancelReasonCount[]; total: number }> {
  const counts = await store.subscriptions.countCancelReasons();
  const known: readonly string[] = CANCEL_REASONS;
  const reasons = [
    ...known.map((reason) => ({ reason, count: counts[reason] ?? 0 })),
    ...Object.keys(counts).filter((r) => !known.includes(r)).sort().map((reason) => ({
      reason,
      count: counts[reason],
    })),
  ];
  return { reasons, total: reasons.reduce((sum, r) => sum + r.count, 0) };
}
