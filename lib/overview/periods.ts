/**
 * The overview's runs of days, counted in the museum's time zone (`config.museumTimeZone`): today,
 * this month so far, last month's same days and the whole of last month, each as its first and last
 * day and as the instants storage reads between (from the first day's midnight to the midnight
 * after the last day).
 *
 * @module
 */
import { addDays, dayOf, dayStart } from "@/lib/core/zoned_time.ts";

/** A run of museum days: the days (`YYYY-MM-DD`, both included) and the instants (`end` excluded). */
export interface DayRange {
  from: string;
  to: string;
  start: string;
  end: string;
}

/** The runs of days the overview counts gifts in. */
export interface MuseumPeriods {
  /** Today in the museum, `YYYY-MM-DD`. */
  today: string;
  ranges: {
    today: DayRange;
    /** The 1st to today. */
    thisMonth: DayRange;
    /** Last month's 1st to the same day of the month, or to its last day when it is shorter. */
    lastMonthSameDays: DayRange;
    /** Last month's 1st to its last day. */
    lastMonth: DayRange;
  };
}

/**
 * The days `from` to `to` (both included) in `timeZone`, with the instants of their bounds.
 *
 * @example
 * ```ts
 * dayRange("2026-11-29", "2026-11-29", "Asia/Jerusalem");
 * // { from: "2026-11-29", to: "2026-11-29",
 * //   start: "2026-11-28T22:00:00.000Z", end: "2026-11-29T22:00:00.000Z" }
 * ```
 */
export function dayRange(from: string, to: string, timeZone: string): DayRange {
  return { from, to, start: dayStart(from, timeZone), end: dayStart(addDays(to, 1), timeZone) };
}

/**
 * The overview's periods at `now` in `timeZone`.
 *
 * @example
 * ```ts
 * museumPeriods(new Date("2027-03-31T12:00:00Z"), "Asia/Jerusalem").ranges.lastMonthSameDays;
 * // February 1st to 28th: February has no 31st
 * ```
 */
export function museumPeriods(now: Date, timeZone: string): MuseumPeriods {
  const today = dayOf(now, timeZone);
  const monthFirst = `${today.slice(0, 8)}01`;
  const lastMonthLast = addDays(monthFirst, -1);
  const lastMonthFirst = `${lastMonthLast.slice(0, 8)}01`;
  const sameDay = `${lastMonthFirst.slice(0, 8)}${today.slice(8)}`;
  return {
    today,
    ranges: {
      today: dayRange(today, today, timeZone),
      thisMonth: dayRange(monthFirst, today, timeZone),
      lastMonthSameDays: dayRange(
        lastMonthFirst,
        sameDay < lastMonthLast ? sameDay : lastMonthLast,
        timeZone,
      ),
      lastMonth: dayRange(lastMonthFirst, lastMonthLast, timeZone),
    },
  };
}
