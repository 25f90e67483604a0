/**
 * The accountant's report figures on PostgreSQL (`store.reports`): `group by` over the periods'
 * rows only, through the time indexes of migration 30 (`transactions_success_report`,
 * `transactions_error_created_at`, `subscriptions_created_at`, `subscriptions_cancelled_at`,
 * `refunds_succeeded_settled_at`).
 *
 * A row's period is `width_bucket(instant, bounds) - 1` over the same bounds Deno KV buckets by
 * (`periodOf` in `../report_queries.ts`: `bounds[i] <= instant < bounds[i + 1]`), and a donor is
 * the same key (`reportDonorKey`: the email, or `d:` and the donor id once erased), so the two
 * backends answer the same figures. A refund is joined to the transaction it refunded (by primary
 * key) for whether the gift was monthly. Six statements, run at once; each reads an index range of
 * the periods and answers a few rows per period.
 *
 * @module
 */

import { canonicalFigures, reportBounds } from "@/lib/storage/report_queries.ts";
import type { ReportRepository } from "@/lib/storage/types.ts";
import type { PgContext } from "./context.ts";

/** The {@link ReportRepository} of the store on `ctx`. */
export function pgReports({ sql }: PgContext): ReportRepository {
  return {
    async figures(input) {
      const bounds = reportBounds(input);
      const [from, to] = [bounds[0], bounds[bounds.length - 1]];
      const edges = sql`${bounds}::timestamptz[]`;
      const [gifts, refunds, donors, failed, created, cancelled] = await Promise.all([
        sql<{ period: number; currency: number; is_monthly: boolean; amount: string; count: string }[]>`
          select width_bucket(created_at, ${edges}) - 1 as period, currency, is_monthly,
            sum(amount) as amount, count(*) as count
          from transactions
          where kind = 'success' and created_at >= ${from} and created_at < ${to}
            and amount is not null and currency is not null
          group by 1, 2, 3
        `,
        sql<{ period: number; currency: number; is_monthly: boolean; amount: string; count: string }[]>`
          select width_bucket(r.settled_at, ${edges}) - 1 as period, r.currency, t.is_monthly,
            sum(r.amount) as amount, count(*) as count
          from refunds r join transactions t on t.id = r.transaction_id
          where r.state = 'succeeded' and r.settled_at >= ${from} and r.settled_at < ${to}
          group by 1, 2, 3
        `,
        sql<{ period: number; count: string }[]>`
          select width_bucket(created_at, ${edges}) - 1 as period,
            count(distinct case when user_email = '' then 'd:' || donor_id else 'e:' || user_email end)
              as count
          from transactions
          where kind = 'success' and created_at >= ${from} and created_at < ${to}
          group by 1
        `,
        sql<{ period: number; is_monthly: boolean; count: string }[]>`
          select width_bucket(created_at, ${edges}) - 1 as period, is_monthly, count(*) as count
          from transactions
          where kind = 'error' and created_at >= ${from} and created_at < ${to}
          group by 1, 2
        `,
        sql<{ period: number; currency: number; amount: string; count: string }[]>`
          select width_bucket(created_at, ${edges}) - 1 as period, currency,
            sum(amount) as amount, count(*) as count
          from subscriptions
          where created_at >= ${from} and created_at < ${to}
          group by 1, 2
        `,
        sql<{ period: number; currency: number; amount: string; count: string }[]>`
          select width_bucket(cancelled_at, ${edges}) - 1 as period, currency,
            sum(amount) as amount, count(*) as count
          from subscriptions
          where status = 'cancelled' and cancelled_at >= ${from} and cancelled_at < ${to}
          group by 1, 2
        `,
      ]);
      const currency = (n: number) => n as 1 | 2;
      const subscriptionTotals = (rows: typeof created) =>
        rows.map((r) => ({
          period: r.period,
          currency: currency(r.currency),
          amount: Number(r.amount),
          count: Number(r.count),
        }));
      const giftTotals = (rows: typeof gifts) =>
        rows.map((r) => ({
          period: r.period,
          currency: currency(r.currency),
          isMonthly: r.is_monthly,
          amount: Number(r.amount),
          count: Number(r.count),
        }));
      return canonicalFigures({
        gifts: giftTotals(gifts),
        refunds: giftTotals(refunds),
        donors: donors.map((r) => ({ period: r.period, count: Number(r.count) })),
        failed: failed.map((r) => ({ period: r.period, isMonthly: r.is_monthly, count: Number(r.count) })),
        newMonthly: subscriptionTotals(created),
        cancelledMonthly: subscriptionTotals(cancelled),
      });
    },
  };
}
