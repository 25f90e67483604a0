/**
 * A calendar day as typed in a back-office filter, checked the same in the browser and on the
 * server. Its own module (issue 29): the outgoing email section checks its days without shipping
 * the transaction history's filters (a shared module lands whole in every importer's chunk).
 *
 * @module
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Whether `text` is a calendar day `YYYY-MM-DD` (the year 2000 to 2999: a back office's days).
 *
 * @example
 * ```ts
 * isDay("2026-02-28"); // true
 * isDay("2026-02-30"); // false
 * ```
 */
export function isDay(text: string): boolean {
  const m = DAY.exec(text);
  if (!m || m[1] < "2000" || m[1] > "2999") return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === text;
}
