/**
 * The overview's gifts: successful transactions with a known amount, one-time and monthly alike,
 * counted by when they were recorded (`createdAt`) in the museum's days, per currency. Failed
 * payments count for nothing and refunds are not subtracted (the pending ones are a part of their
 * own). Read in one call (`transactions.dailyTotals`, which sums any periods given by their bounds) over the bounds of the periods: its cost
 * follows the two months' gifts, never the whole store; kept briefly (`totals_cache.ts`).
 *
 * @module
 */
import type { CurrencyTotal, OverviewGifts } from "@/lib/shared/overview.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { DailyTotal, Store } from "@/lib/storage/types.ts";
import { transactionsHref } from "./links.ts";
import { keptTotals } from "./totals_cache.ts";
import type { DayRange, MuseumPeriods } from "./periods.ts";

/**
 * Sums per currency, ascending: of records (each counts one) or of sums (with their `count`).
 *
 * @example
 * ```ts
 * sumPerCurrency([{ currency: 2, amount: 5 }, { currency: 1, amount: 7, count: 3 }]);
 * // [{ currency: 1, count: 3, amount: 7 }, { currency: 2, count: 1, amount: 5 }]
 * ```
 */
export function sumPerCurrency(
  entries: readonly { currency: 1 | 2; amount: number; count?: number }[],
): CurrencyTotal[] {
  const sums = new Map<1 | 2, CurrencyTotal>();
  for (const entry of entries) {
    const sum = sums.get(entry.currency) ?? { currency: entry.currency, count: 0, amount: 0 };
    sum.count += entry.count ?? 1;
    sum.amount += entry.amount;
    sums.set(entry.currency, sum);
  }
  return [...sums.values()].sort((a, b) => a.currency - b.currency);
}

/** The sums of `entries` in the periods (of `bounds`) that lie inside `range`, per currency. */
const sumIn = (entries: readonly DailyTotal[], bounds: readonly string[], range: DayRange) =>
  sumPerCurrency(
    entries.filter((e) => bounds[e.period] >= range.start && bounds[e.period + 1] <= range.end),
  );

/**
 * The gifts of each period.
 *
 * @example
 * ```ts
 * const gifts = await giftFigures(store, museumPeriods(new Date(), zone), "en");
 * gifts.today.totals; // [{ currency: 1, count: 3, amount: 45_000 }]
 * ```
 */
export async function giftFigures(store: Store, periods: MuseumPeriods, lang: Lang): Promise<OverviewGifts> {
  const ranges = Object.values(periods.ranges);
  // Every range's start and end, once each, ascending: the ranges are unions of these periods.
  const bounds = [...new Set(ranges.flatMap((r) => [r.start, r.end]))].sort();
  const totals = await keptTotals(store, bounds);
  const period = (range: DayRange) => ({
    from: range.from,
    to: range.to,
    totals: sumIn(totals, bounds, range),
    href: transactionsHref(lang, { type: "success", from: range.from, to: range.to }),
  });
  const { today, thisMonth, lastMonthSameDays, lastMonth } = periods.ranges;
  return {
    today: period(today),
    thisMonth: period(thisMonth),
    lastMonthSameDays: period(lastMonthSameDays),
    lastMonth: period(lastMonth),
  };
}
