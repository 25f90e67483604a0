/**
 * Daily totals of successful donations for the back office: every day of a window ending today,
 * per currency, the days being the museum's (`config.museumTimeZone`, as the monthly report's
 * months: a gift at 01:00 in Jerusalem is on that Jerusalem day in both). Storage sums the periods
 * between the days' starts computed here (`transactions.dailyTotals`); this module asks for the
 * window and fills in the empty days. Data only: the admin page draws the chart from it
 * (`islands/admin/DailyTotalsChart.tsx`).
 *
 * @module
 */
import { addDays, dayOf, dayStart } from "@/lib/core/zoned_time.ts";
import type { DailyTotalsAnswer, DayTotals } from "@/lib/shared/daily_totals.ts";
import type { DailyTotal, Store } from "@/lib/storage/types.ts";

/**
 * The window of `days` days in `timeZone` ending on `now`'s day there: the days (`YYYY-MM-DD`,
 * oldest first) and the instants storage sums between (each day's local midnight, then the next
 * day's after the last: a day is 23 or 25 hours long when the clocks change).
 *
 * @example
 * ```ts
 * totalsWindow(2, new Date("2026-11-22T22:30:00Z"), "Asia/Jerusalem");
 * // { days: ["2026-11-22", "2026-11-23"],
 * //   bounds: ["2026-11-21T22:00:00.000Z", "2026-11-22T22:00:00.000Z", "2026-11-23T22:00:00.000Z"] }
 * ```
 */
export function totalsWindow(
  days: number,
  now: Date,
  timeZone: string,
): { days: string[]; bounds: string[] } {
  if (!Number.isSafeInteger(days) || days < 1) {
    throw new RangeError(`days must be a whole number >= 1: ${days}`);
  }
  const today = dayOf(now, timeZone);
  const list = Array.from({ length: days }, (_, i) => addDays(today, i - days + 1));
  return { days: list, bounds: [...list, addDays(today, 1)].map((day) => dayStart(day, timeZone)) };
}

/**
 * Every day of `days` (oldest first) with its totals (storage's period `i` is `days[i]`),
 * ascending by currency; days storage did not answer are empty.
 *
 * @example
 * ```ts
 * fillDays([{ period: 1, currency: 1, amount: 500, count: 1 }], ["2026-11-20", "2026-11-21"]);
 * // [{ date: "2026-11-20", totals: [] },
 * //  { date: "2026-11-21", totals: [{ currency: 1, amount: 500, count: 1 }] }]
 * ```
 */
export function fillDays(entries: readonly DailyTotal[], days: readonly string[]): DayTotals[] {
  const out: DayTotals[] = days.map((date) => ({ date, totals: [] }));
  for (const entry of entries) {
    out[entry.period]?.totals.push({ currency: entry.currency, amount: entry.amount, count: entry.count });
  }
  for (const day of out) day.totals.sort((a, b) => a.currency - b.currency);
  return out;
}

/**
 * The daily totals of the last `days` days in `timeZone` (the museum's; today included).
 *
 * @example
 * ```ts
 * const answer = await dailyTotals(store, { days: 30 }, config.museumTimeZone);
 * answer.days.length; // 30
 * ```
 */
export async function dailyTotals(
  store: Store,
  query: { days: number },
  timeZone: string,
  now: Date = new Date(),
): Promise<DailyTotalsAnswer> {
  const window = totalsWindow(query.days, now, timeZone);
  const entries = await store.transactions.dailyTotals(window.bounds);
  const currencies = [...new Set(entries.map((entry) => entry.currency))].sort((a, b) => a - b);
  return {
    from: window.days[0],
    to: window.days[window.days.length - 1],
    timeZone,
    currencies,
    days: fillDays(entries, window.days),
  };
}
