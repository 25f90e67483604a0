/**
 * Billing dates: a monthly donation is charged on the same day of each month as its first
 * payment, or on the month's last day when the month is shorter (31 Jan → 28/29 Feb → 31 Mar).
 *
 * @module
 */

/**
 * The due date one month after `from`, keeping the day of month of `anchor` where the month has it.
 *
 * @example
 * ```ts
 * nextMonth("2026-01-31T10:00:00.000Z", "2026-01-31T10:00:00.000Z"); // "2026-02-28T10:00:00.000Z"
 * nextMonth("2026-02-28T10:00:00.000Z", "2026-01-31T10:00:00.000Z"); // "2026-03-31T10:00:00.000Z"
 * ```
 */
export function nextMonth(from: string, anchor: string): string {
  const f = new Date(from), a = new Date(anchor);
  const year = f.getUTCFullYear() + (f.getUTCMonth() === 11 ? 1 : 0);
  const month = (f.getUTCMonth() + 1) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(
    year,
    month,
    Math.min(a.getUTCDate(), lastDay),
    a.getUTCHours(),
    a.getUTCMinutes(),
    a.getUTCSeconds(),
    a.getUTCMilliseconds(),
  )).toISOString();
}

/** Retries of a failed monthly charge: after 1, 3 and 7 days; then the subscription fails. */
export const RETRY_DAYS = [1, 3, 7] as const;
