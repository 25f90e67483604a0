/**
 * What `GET /api/transaction/daily-totals` answers: successful donations summed per day (the
 * museum's, in its time zone) and currency. Shared by the server, which sums them (`lib/reports/daily_totals.ts`), and the back office,
 * which draws them (`islands/admin/DailyTotalsChart.tsx`): the API answers data, the page draws.
 * Types only, safe for islands.
 *
 * @module
 */
import type { CurrencyCode } from "./money.ts";

/** One currency's sum on one day. */
export interface CurrencyTotal {
  currency: CurrencyCode;
  /** Minor units. */
  amount: number;
  count: number;
}

/** One day of the window (in the museum's time zone): its totals per currency (ascending), empty when none. */
export interface DayTotals {
  /** `YYYY-MM-DD`. */
  date: string;
  totals: CurrencyTotal[];
}

/** The answer. */
export interface DailyTotalsAnswer {
  /** The window's first day, `YYYY-MM-DD`. */
  from: string;
  /** Its last day (today), `YYYY-MM-DD`. */
  to: string;
  /** The museum's time zone (IANA name, e.g. `Asia/Jerusalem`): the days are its days. */
  timeZone: string;
  /** The currencies with donations in the window, ascending. */
  currencies: CurrencyCode[];
  /** Every day of the window, oldest first. */
  days: DayTotals[];
}
