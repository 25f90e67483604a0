/**
 * What the accountant's report reads, the same on both backends (as `queries.ts` is for the
 * lists): the checked period bounds, which period an instant falls in, and who counts as one
 * donor. PostgreSQL keeps the same rules in SQL (`postgres/reports.ts`: `width_bucket` over the
 * same bounds, the same donor key), and the contract suite checks that both answer alike.
 *
 * @module
 */
import { isoInstant } from "./records.ts";
import type { ReportFigures, Transaction } from "./types.ts";

/** The most periods one `reports.figures` call sums (three years of months). */
export const MAX_REPORT_PERIODS = 36;

/**
 * `bounds` normalized (`toISOString`), checked to be 2 to {@link MAX_REPORT_PERIODS} + 1 strictly
 * ascending instants; throws RangeError otherwise.
 */
export function reportBounds(bounds: readonly string[]): string[] {
  return periodBounds(bounds, MAX_REPORT_PERIODS, "a report");
}

/**
 * `bounds` normalized (`toISOString`), checked to be 2 to `maxPeriods` + 1 strictly ascending
 * instants; throws RangeError otherwise (naming `what` asked). The periods of `reports.figures` and
 * of `transactions.dailyTotals`.
 */
export function periodBounds(bounds: readonly string[], maxPeriods: number, what: string): string[] {
  if (!Array.isArray(bounds) || bounds.length < 2 || bounds.length > maxPeriods + 1) {
    const given = Array.isArray(bounds) ? bounds.length - 1 : "no";
    throw new RangeError(`${what} has 1 to ${maxPeriods} periods: ${given} given`);
  }
  const out = bounds.map((b, i) => isoInstant(b, `bounds[${i}]`));
  for (let i = 1; i < out.length; i++) {
    if (out[i] <= out[i - 1]) throw new RangeError(`bounds must ascend: ${out[i - 1]} then ${out[i]}`);
  }
  return out;
}

/**
 * The period `instant` falls in (`bounds[i] <= instant < bounds[i + 1]`), or -1 outside them.
 * Canonical ISO instants of the years 0000-9999 compare as strings in time order.
 */
export function periodOf(bounds: readonly string[], instant: string): number {
  if (instant < bounds[0] || instant >= bounds[bounds.length - 1]) return -1;
  let low = 0;
  let high = bounds.length - 1; // bounds[low] <= instant < bounds[high]
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if (bounds[mid] <= instant) low = mid;
    else high = mid;
  }
  return low;
}

/**
 * Who a transaction's donor is for the report's count of donors: the email address (stored
 * normalized, from the donor record), or the donor id once the email was erased.
 */
export function reportDonorKey(tx: Pick<Transaction, "donorId" | "user">): string {
  return tx.user.email === "" ? `d:${tx.donorId}` : `e:${tx.user.email}`;
}

/**
 * The figures in their one order (period, then currency, then one-time before monthly), without
 * empty entries: both backends answer through this, so their answers compare equal.
 */
export function canonicalFigures(figures: ReportFigures): ReportFigures {
  const byPeriod = <T extends { period: number }>(a: T, b: T) => a.period - b.period;
  const byCurrency = <T extends { period: number; currency: number }>(a: T, b: T) =>
    byPeriod(a, b) || a.currency - b.currency;
  const monthlyLast = (a: { isMonthly: boolean }, b: { isMonthly: boolean }) =>
    Number(a.isMonthly) - Number(b.isMonthly);
  const some = (entry: { count: number }) => entry.count > 0;
  return {
    gifts: figures.gifts.filter(some).sort((a, b) => byCurrency(a, b) || monthlyLast(a, b)),
    refunds: figures.refunds.filter(some).sort((a, b) => byCurrency(a, b) || monthlyLast(a, b)),
    donors: figures.donors.filter(some).sort(byPeriod),
    failed: figures.failed.filter(some).sort((a, b) => byPeriod(a, b) || monthlyLast(a, b)),
    newMonthly: figures.newMonthly.filter(some).sort(byCurrency),
    cancelledMonthly: figures.cancelledMonthly.filter(some).sort(byCurrency),
  };
}

/**
 * Sums records into the figures' entries: `add(key, fields, amount)` adds one record (and its
 * amount) to the entry of `fields` named by `key`. For a backend that sums in memory (Deno KV).
 */
export class FigureSums<T extends { count: number; amount?: number }> {
  readonly #entries = new Map<string, T>();
  /** Counts one record in the entry of `fields`, adding `amount` when the entry has one. */
  add(fields: Omit<T, "count" | "amount">, amount?: number): void {
    const key = JSON.stringify(fields);
    const entry = this.#entries.get(key) ??
      ({ ...fields, count: 0, ...(amount === undefined ? {} : { amount: 0 }) } as T);
    entry.count++;
    if (amount !== undefined) entry.amount = (entry.amount ?? 0) + amount;
    this.#entries.set(key, entry);
  }
  /** The entries summed so far. */
  values(): T[] {
    return [...this.#entries.values()];
  }
}
