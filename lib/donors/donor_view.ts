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
import { CANCEL_REASONS } from "@/lib/monthly_gifts/mod.ts";
import { statusText } from "@/lib/donations/mod.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { addressRecords } from "./records.ts";
import type { Store, Subscription, Transaction } from "@/lib/storage/types.ts";
import type {
  CancelReasonCount,
  CurrencyTotal,
  DonorRecordView,
  DonorView,
  GiftView,
  MonthlyState,
  MonthlyView,
} from "@/lib/shared/donor_view.ts";
export type {
  CancelReasonCount,
  CurrencyTotal,
  DonorRecordView,
  DonorView,
  GiftView,
  MonthlyState,
  MonthlyView,
};

/** The most gifts the view lists (newest first): the most one `listByDonors` call answers. */
export const MAX_VIEW_GIFTS = 1_000;

/** No donor record has this email address (the API answers 404). */
export class NoDonorWithEmailError extends DomainError {
  override readonly kind = "not_found";
  constructor() {
    super("No donor with this email address");
  }
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
 * The donor view of `email` (normalized: trimmed, lower case) at `now`, a failed gift's
 * `statusText` in `lang`; throws {@link NoDonorWithEmailError} when no donor record has that address.
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
  lang: Lang = "en",
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
        statusText: tx.kind === "success" ? null : statusText(tx.statusCode, lang),
        refunded: refunds.get(tx.id)?.refunded ?? 0,
      };
    }),
    monthly: subscriptions.map((s) => monthlyView(s, at)).sort(monthlyOrder),
    complete: txs.length < MAX_VIEW_GIFTS,
  };
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
