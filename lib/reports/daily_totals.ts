/**
 * Daily totals of successful donations for the back office: every UTC day of a window ending
 * today, per currency. Storage sums the days (`transactions.dailyTotals`); this module asks for the
 * window and fills in the empty days. Data only: the admin page draws the chart from it
 * (`islands/admin/DailyTotalsChart.tsx`).
 *
 * @module
 */
import type { DailyTotalsAnswer, DayTotals } from "@/lib/shared/daily_totals.ts";
import type { DailyTotal, Store } from "@/lib/storage/types.ts";

const DAY_MS = 86_400_000;

/**
 * The window of `days` UTC days ending on `now`'s day: its first and last day, and the instants
 * storage sums between (`from` inclusive, `to` exclusive: the start of tomorrow).
 *
 * @example
 * ```ts
 * totalsWindow(7, new Date("2026-11-22T15:00:00Z"));
 * // { first: "2026-11-16", last: "2026-11-22",
 * //   from: "2026-11-16T00:00:00.000Z", to: "2026-11-23T00:00:00.000Z" }
 * ```
 */
export function totalsWindow(
  days: number,
  now: Date,
): { first: string; last: string; from: string; to: string } {
  if (!Number.isSafeInteger(days) || days < 1) {
    throw new RangeError(`days must be a whole number >= 1: ${days}`);
  }
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const start = today - (days - 1) * DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    first: iso(start).slice(0, 10),
    last: iso(today).slice(0, 10),
    from: iso(start),
    to: iso(today + DAY_MS),
  };
}

/**
 * Every day from `first` on (`days` of them, oldest first) with its totals, ascending by
 * currency; days storage did not answer are empty.
 *
 * @example
 * ```ts
 * fillDays([{ day: "2026-11-21", currency: 1, amount: 500, count: 1 }], "2026-11-20", 3);
 * // [{ date: "2026-11-20", totals: [] },
 * //  { date: "2026-11-21", totals: [{ currency: 1, amount: 500, count: 1 }] },
 * //  { date: "2026-11-22", totals: [] }]
 * ```
 */
export function fillDays(entries: readonly DailyTotal[], first: string, days: number): DayTotals[] {
  const start = Date.parse(`${first}T00:00:00Z`);
  const out: DayTotals[] = Array.from({ length: days }, (_, i) => ({
    date: new Date(start + i * DAY_MS).toISOString().slice(0, 10),
    totals: [],
  }));
  const byDate = new Map(out.map((day) => [day.date, day]));
  for (const entry of entries) {
    byDate.get(entry.day)?.totals.push({
      currency: entry.currency,
      amount: entry.amount,
      count: entry.count,
    });
  }
  for (const day of out) day.totals.sort((a, b) => a.currency - b.currency);
  return out;
}

/**
 * The daily totals of the last `days` UTC days (today included).
 *
 * @example
 * ```ts
 * const answer = await dailyTotals(store, { days: 30 });
 * answer.days.length; // 30
 * ```
 */
export async function dailyTotals(
  store: Store,
  query: { days: number },
  now: Date = new Date(),
): Promise<DailyTotalsAnswer> {
  const window = totalsWindow(query.days, now);
  const entries = await store.transactions.dailyTotals({ from: window.from, to: window.to });
  const days = fillDays(entries, window.first, query.days);
  const currencies = [...new Set(entries.map((entry) => entry.currency))].sort((a, b) => a - b);
  return {
    from: window.first,
    to: window.last,
    timeZone: "UTC",
    currencies,
    days,
  };
}
