/**
 * The `days` of a daily totals answer, written by day for tests: `count` days from `first`, each
 * with the totals of its entries (through `fillDays`, as the server fills them).
 *
 * @module
 */
import { addDays } from "@/lib/core/zoned_time.ts";
import { fillDays } from "@/lib/reports/daily_totals.ts";
import type { DayTotals } from "@/lib/shared/daily_totals.ts";
import type { DailyTotal } from "@/lib/storage/types.ts";

/**
 * `count` days from `first` (`YYYY-MM-DD`) with the entries' totals; entries on other days are left out.
 *
 * @example
 * ```ts
 * daysOf([{ day: "2026-11-21", currency: 1, amount: 500, count: 1 }], "2026-11-20", 3)[1].totals.length; // 1
 * ```
 */
export function daysOf(
  entries: readonly (Omit<DailyTotal, "period"> & { day: string })[],
  first: string,
  count: number,
): DayTotals[] {
  const dates = Array.from({ length: count }, (_, i) => addDays(first, i));
  return fillDays(entries.map(({ day, ...total }) => ({ ...total, period: dates.indexOf(day) })), dates);
}
