/**
 * The overview's gifts: successful transactions with a known amount, one-time and monthly alike,
 * counted by when they were recorded (`createdAt`) in the museum's days, per currency; and what was
 * refunded this month (refunds that went through, by when the provider gave the money back). Read
 * in one call of the accountant's figures (`store.reports.figures`), over the bounds of the
 * periods: its cost follows the two months' records, never the whole store.
 *
 * @module
 */
import type { CurrencyTotal, OverviewGifts } from "@/lib/shared/overview.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { ReportGiftTotal, Store } from "@/lib/storage/types.ts";
import { transactionsHref } from "./links.ts";
import type { DayRange, MuseumPeriods } from "./periods.ts";

/** The sums of `entries` in the periods (of `bounds`) that lie inside `range`, per currency. */
function sumIn(
  entries: readonly ReportGiftTotal[],
  bounds: readonly string[],
  range: DayRange,
): CurrencyTotal[] {
  const sums = new Map<1 | 2, CurrencyTotal>();
  for (const entry of entries) {
    if (bounds[entry.period] < range.start || bounds[entry.period + 1] > range.end) continue;
    const sum = sums.get(entry.currency) ?? { currency: entry.currency, count: 0, amount: 0 };
    sum.count += entry.count;
    sum.amount += entry.amount;
    sums.set(entry.currency, sum);
  }
  return [...sums.values()].sort((a, b) => a.currency - b.currency);
}

/**
 * The gifts of each period, and the refunds that went through this month.
 *
 * @example
 * ```ts
 * const { gifts } = await giftFigures(store, museumPeriods(new Date(), zone), "en");
 * gifts.today.totals; // [{ currency: 1, count: 3, amount: 45_000 }]
 * ```
 */
export async function giftFigures(
  store: Store,
  periods: MuseumPeriods,
  lang: Lang,
): Promise<{ gifts: OverviewGifts; refundedThisMonth: CurrencyTotal[] }> {
  const ranges = Object.values(periods.ranges);
  // Every range's start and end, once each, ascending: the ranges are unions of these periods.
  const bounds = [...new Set(ranges.flatMap((r) => [r.start, r.end]))].sort();
  const figures = await store.reports.figures(bounds);
  const period = (range: DayRange) => ({
    from: range.from,
    to: range.to,
    totals: sumIn(figures.gifts, bounds, range),
    href: transactionsHref(lang, { type: "success", from: range.from, to: range.to }),
  });
  const { today, thisMonth, lastMonthSameDays, lastMonth } = periods.ranges;
  return {
    gifts: {
      today: period(today),
      thisMonth: period(thisMonth),
      lastMonthSameDays: period(lastMonthSameDays),
      lastMonth: period(lastMonth),
    },
    refundedThisMonth: sumIn(figures.refunds, bounds, thisMonth),
  };
}
