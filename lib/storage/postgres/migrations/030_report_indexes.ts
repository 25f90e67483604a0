/**
 * Migration 30, `report_indexes`: the time indexes the accountant's monthly reports read (issue 16,
 * `../reports.ts`), so a month's figures cost work in proportion to that month's records.
 *
 * - successful transactions already have `transactions_success_created_at` (migration 9); this one
 *   also covers what the report groups and counts (one-time or monthly, the donor), so the sums are
 *   an index-only scan of the months asked for;
 * - error transactions get `transactions_error_created_at` (the failed charges per month);
 * - subscriptions get `subscriptions_created_at` (new monthly gifts) and a partial
 *   `subscriptions_cancelled_at` of the cancelled ones (cancelled monthly gifts);
 * - refunds get a partial `refunds_succeeded_settled_at` of the succeeded ones (the refunds per
 *   month, by when the money went back).
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 30, as `schema_migrations` records it. */
export const migration030 = {
  version: 30,
  name: "report_indexes",
  sql: `
      create index transactions_success_report on transactions (created_at)
        include (currency, amount, is_monthly, donor_id, user_email) where kind = 'success';
      create index transactions_error_created_at on transactions (created_at) include (is_monthly)
        where kind = 'error';
      create index subscriptions_created_at on subscriptions (created_at) include (currency, amount);
      create index subscriptions_cancelled_at on subscriptions (cancelled_at) include (currency, amount)
        where status = 'cancelled';
      create index refunds_succeeded_settled_at on refunds (settled_at)
        include (currency, amount, transaction_id) where state = 'succeeded';
    `,
};
