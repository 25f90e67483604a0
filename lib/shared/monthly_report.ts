/**
 * The accountant's monthly report as the API answers it (`GET /api/reports/monthly`) and the back
 * office's island reads it; made on the server by `lib/reports/monthly.ts` from storage's sums.
 *
 * @module
 */

/** A sum of money and how many records made it. */
export interface ReportSum {
  /** Minor units. */
  amount: number;
  count: number;
}

/** One-time, monthly and both, of donations or refunds. */
export interface KindSums {
  oneTime: ReportSum;
  monthly: ReportSum;
  total: ReportSum;
}

/** One month's money in one currency (minor units). */
export interface CurrencyFigures {
  /** 1 = NIS, 2 = USD. */
  currency: 1 | 2;
  donations: KindSums;
  refunds: KindSums;
  /** Donations minus refunds. */
  net: { oneTime: number; monthly: number; total: number };
  /** Monthly gifts that started in the month (amount: what they give each month). */
  newMonthly: ReportSum;
  /** Monthly gifts cancelled in the month (amount: what they gave each month). */
  cancelledMonthly: ReportSum;
}

/** One month of the report. */
export interface MonthFigures {
  /** `YYYY-MM`. */
  month: string;
  /** The instants the month spans in the report's time zone: `start <= at < end`. */
  start: string;
  end: string;
  /** One entry per currency of the report, ascending. */
  money: CurrencyFigures[];
  /** Donors with a successful gift in the month. */
  donors: number;
  /** Declined or failed payments and charges (error transactions). */
  failedCharges: { oneTime: number; monthly: number; total: number };
}

/** `GET /api/reports/monthly`'s answer. */
export interface MonthlyReport {
  /** First and last month, `YYYY-MM`. */
  from: string;
  to: string;
  timeZone: string;
  /** The currencies with any figure in the range, ascending (the report's columns). */
  currencies: (1 | 2)[];
  /** Every month of the range, oldest first. */
  months: MonthFigures[];
  /** The whole range per currency (as the months', summed). */
  totals: CurrencyFigures[];
}
