/**
 * The storage contract for the accountant's reports (issue 16): the figures of consecutive periods
 * (the report's months), summed by the backend over the records of each period only. Types only;
 * part of the {@link Store} in `types.ts`, which re-exports them.
 *
 * Periods are given as their boundaries (ISO instants, ascending): period `i` is
 * `bounds[i] <= instant < bounds[i + 1]`. The caller decides what a month is (the museum's time
 * zone, `lib/reports/`), so both backends bucket by the same instants and cannot disagree.
 *
 * @module
 */
import type { ReportSum } from "@/lib/shared/monthly_report.ts";

export type { ReportSum };

/** Successful gifts of one period in one currency, one-time or monthly. */
export interface ReportGiftTotal extends ReportSum {
  /** Index of the period in the bounds given. */
  period: number;
  /** 1 = NIS, 2 = USD. */
  currency: 1 | 2;
  isMonthly: boolean;
}

/** Monthly gifts that started (or were cancelled) in one period, in one currency. */
export interface ReportSubscriptionTotal extends ReportSum {
  period: number;
  currency: 1 | 2;
}

/** What storage answers for a report's periods. Every list holds only non-empty entries. */
export interface ReportFigures {
  /**
   * Successful transactions with a known amount and currency, by `createdAt`: summed per period,
   * currency and one-time/monthly. Ordered by period, currency, then one-time before monthly.
   */
  gifts: ReportGiftTotal[];
  /**
   * Succeeded refunds by `settledAt` (when the provider gave the money back), summed per period,
   * the refund's currency, and one-time/monthly of the gift it refunded. Pending and failed
   * refunds count for nothing. Same order as `gifts`.
   */
  refunds: ReportGiftTotal[];
  /**
   * Per period, how many distinct donors had a successful transaction: a donor is the
   * transaction's email address, or its donor id when the email was erased (empty), so a donor who
   * filled in the form several times counts once, as on the back office's donor page.
   */
  donors: { period: number; count: number }[];
  /** Error transactions (declined or failed charges) per period and one-time/monthly, by `createdAt`. */
  failed: { period: number; isMonthly: boolean; count: number }[];
  /** Subscriptions by `createdAt` (amount: the monthly amounts), per period and currency. */
  newMonthly: ReportSubscriptionTotal[];
  /** Subscriptions with status `cancelled`, by `cancelledAt`, per period and currency. */
  cancelledMonthly: ReportSubscriptionTotal[];
}

/** The accountant's report figures (`store.reports`). */
export interface ReportRepository {
  /**
   * The figures of each period of `bounds` (2 to 37 ascending ISO instants: at most 36 periods,
   * `MAX_REPORT_PERIODS` of `report_queries.ts`; RangeError otherwise). Costs work in proportion to the records of the periods
   * (transactions and subscriptions created, subscriptions cancelled, refunds settled), never to
   * the whole store:
   * PostgreSQL reads time indexes and groups; Deno KV reads its time index keys
   * (`kv/reports.ts`).
   */
  figures(bounds: readonly string[]): Promise<ReportFigures>;
}
