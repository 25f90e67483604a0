/**
 * The accountant's monthly report (issue 16): per month, in the museum's time zone, the
 * successful donations, the refunds and the net per currency, one-time and monthly; the number of
 * donors; the monthly gifts that started and were cancelled; the failed charges. Storage sums the
 * months (`store.reports.figures`, over the months' bounds computed here, so both backends bucket
 * by the same instants), refunds among them; this module checks the range and lays the figures out, every month and currency present, zeros
 * included. The table, CSV and chart are drawn from the answer (`csv.ts`, `chart.ts`, the page).
 *
 * What counts where: a gift in the month of its `createdAt` (a success with a known amount and
 * currency); a refund in the month it was made, under the kind of gift it refunded; a donor once
 * per month (by email, an erased donor by record); a monthly gift as new in the month it started
 * and as cancelled in the month it was cancelled (a gift that ended after failed charges is not
 * counted as cancelled: its declined charges are among the failed charges).
 *
 * @module
 */
import { DomainError } from "@/lib/core/errors.ts";
import { monthOf, monthStart } from "@/lib/core/zoned_time.ts";
import type { ReportSum, Store } from "@/lib/storage/types.ts";
import type { CurrencyFigures, KindSums, MonthFigures, MonthlyReport } from "@/lib/shared/monthly_report.ts";

export type { CurrencyFigures, KindSums, MonthFigures, MonthlyReport };

/** The most months one report covers. */
export const MAX_REPORT_MONTHS = 36;

/** A range the report refuses (400): a month before the first, or too many months. */
export class InvalidReportRangeError extends DomainError {
  override readonly kind = "invalid";
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** The years a report may cover: instants both backends store and write alike (four-digit years). */
const FIRST_YEAR = 1970;
const LAST_YEAR = 9998;

/** `YYYY-MM` as a month count (year * 12 + month - 1), or null when malformed. */
function monthIndex(month: string): number | null {
  const m = MONTH.exec(month);
  return m ? Number(m[1]) * 12 + Number(m[2]) - 1 : null;
}

const monthName = (index: number) =>
  `${String(Math.floor(index / 12)).padStart(4, "0")}-${String((index % 12) + 1).padStart(2, "0")}`;

/**
 * The months `from` to `to` (`YYYY-MM`, both included) with their bounds in `timeZone` (the
 * museum's, `config.museumTimeZone`); throws
 * {@link InvalidReportRangeError} for a malformed month, one outside the years 1970 to 9998, `to`
 * before `from`, or more than {@link MAX_REPORT_MONTHS} months.
 */
export function reportMonths(
  from: string,
  to: string,
  timeZone: string,
): { months: string[]; bounds: string[] } {
  const [first, last] = [monthIndex(from), monthIndex(to)];
  if (first === null || last === null) {
    throw new InvalidReportRangeError("Months are written YYYY-MM, e.g. 2026-01", [
      ...(first === null ? [{ path: "from", message: "not a YYYY-MM month" }] : []),
      ...(last === null ? [{ path: "to", message: "not a YYYY-MM month" }] : []),
    ]);
  }
  const outside = [first, last].some((i) => i < FIRST_YEAR * 12 || i >= (LAST_YEAR + 1) * 12);
  if (outside) {
    throw new InvalidReportRangeError(`Months are from ${FIRST_YEAR}-01 to ${LAST_YEAR}-12`, [
      {
        path: first < FIRST_YEAR * 12 || first >= (LAST_YEAR + 1) * 12 ? "from" : "to",
        message: "out of range",
      },
    ]);
  }
  if (last < first) {
    throw new InvalidReportRangeError(`The last month (${to}) is before the first (${from})`, [
      { path: "to", message: "before from" },
    ]);
  }
  if (last - first + 1 > MAX_REPORT_MONTHS) {
    throw new InvalidReportRangeError(`A report covers at most ${MAX_REPORT_MONTHS} months`, [
      { path: "to", message: `more than ${MAX_REPORT_MONTHS} months after from` },
    ]);
  }
  const indexes = Array.from({ length: last - first + 2 }, (_, i) => first + i);
  return {
    months: indexes.slice(0, -1).map(monthName),
    bounds: indexes.map((i) => monthStart(i, timeZone)),
  };
}

/** The default range: the twelve months ending with `now`'s month in `timeZone`. */
export function defaultRange(now: Date, timeZone: string): { from: string; to: string } {
  const index = monthOf(now, timeZone);
  return { from: monthName(index - 11), to: monthName(index) };
}

const zero = (): ReportSum => ({ amount: 0, count: 0 });
const plus = (a: ReportSum, b: ReportSum): ReportSum => ({
  amount: a.amount + b.amount,
  count: a.count + b.count,
});

function emptyCurrency(currency: 1 | 2): CurrencyFigures {
  const kinds = (): KindSums => ({ oneTime: zero(), monthly: zero(), total: zero() });
  return {
    currency,
    donations: kinds(),
    refunds: kinds(),
    net: { oneTime: 0, monthly: 0, total: 0 },
    newMonthly: zero(),
    cancelledMonthly: zero(),
  };
}

/** Adds `b` into `a` (same currency), keeping totals and net consistent. */
function addInto(a: CurrencyFigures, b: CurrencyFigures): void {
  for (const part of ["donations", "refunds"] as const) {
    for (const kind of ["oneTime", "monthly", "total"] as const) {
      a[part][kind] = plus(a[part][kind], b[part][kind]);
    }
  }
  for (const kind of ["oneTime", "monthly", "total"] as const) a.net[kind] += b.net[kind];
  a.newMonthly = plus(a.newMonthly, b.newMonthly);
  a.cancelledMonthly = plus(a.cancelledMonthly, b.cancelledMonthly);
}

/** Sets the totals and net of one currency's month from its one-time and monthly sums. */
function settle(c: CurrencyFigures): CurrencyFigures {
  c.donations.total = plus(c.donations.oneTime, c.donations.monthly);
  c.refunds.total = plus(c.refunds.oneTime, c.refunds.monthly);
  c.net = {
    oneTime: c.donations.oneTime.amount - c.refunds.oneTime.amount,
    monthly: c.donations.monthly.amount - c.refunds.monthly.amount,
    total: c.donations.total.amount - c.refunds.total.amount,
  };
  return c;
}

/**
 * The monthly report for `from`..`to` (`YYYY-MM`, both included; default: the last twelve months),
 * the months being those of `timeZone` (the museum's, `config.museumTimeZone`).
 *
 * @example
 * ```ts
 * const report = await monthlyReport(store, { from: "2026-01", to: "2026-03" }, "Asia/Jerusalem");
 * report.months.map((m) => m.month); // ["2026-01", "2026-02", "2026-03"]
 * ```
 */
export async function monthlyReport(
  store: Store,
  range: { from?: string; to?: string },
  timeZone: string,
  now: Date = new Date(),
): Promise<MonthlyReport> {
  const fallback = defaultRange(now, timeZone);
  const from = range.from ?? (range.to ? range.to : fallback.from);
  const to = range.to ?? (range.from ? range.from : fallback.to);
  const { months, bounds } = reportMonths(from, to, timeZone);
  const figures = await store.reports.figures(bounds);
  const cells = new Map<string, CurrencyFigures>();
  const cell = (period: number, currency: 1 | 2) => {
    const key = `${period}/${currency}`;
    const found = cells.get(key) ?? emptyCurrency(currency);
    cells.set(key, found);
    return found;
  };
  for (const g of figures.gifts) {
    const sums = cell(g.period, g.currency).donations;
    sums[g.isMonthly ? "monthly" : "oneTime"] = plus(sums[g.isMonthly ? "monthly" : "oneTime"], g);
  }
  for (const r of figures.refunds) {
    const sums = cell(r.period, r.currency).refunds;
    sums[r.isMonthly ? "monthly" : "oneTime"] = plus(sums[r.isMonthly ? "monthly" : "oneTime"], r);
  }
  for (const s of figures.newMonthly) cell(s.period, s.currency).newMonthly = plus(zero(), s);
  for (const s of figures.cancelledMonthly) cell(s.period, s.currency).cancelledMonthly = plus(zero(), s);
  const currencies = ([1, 2] as const).filter((c) => [...cells.values()].some((x) => x.currency === c));
  const totals = currencies.map((c) => emptyCurrency(c));
  const out: MonthFigures[] = months.map((month, period) => {
    const money = currencies.map((c) => settle(cells.get(`${period}/${c}`) ?? emptyCurrency(c)));
    money.forEach((m, i) => addInto(totals[i], m));
    const failed = figures.failed.filter((f) => f.period === period);
    const oneTime = failed.find((f) => !f.isMonthly)?.count ?? 0;
    const monthly = failed.find((f) => f.isMonthly)?.count ?? 0;
    return {
      month,
      start: bounds[period],
      end: bounds[period + 1],
      money,
      donors: figures.donors.find((d) => d.period === period)?.count ?? 0,
      failedCharges: { oneTime, monthly, total: oneTime + monthly },
    };
  });
  return {
    from: months[0],
    to: months[months.length - 1],
    timeZone,
    currencies,
    months: out,
    totals,
  };
}
