/**
 * Migration 9, `error_sub_lists_and_daily_totals`: errors' monthly and one-time lists, the daily-totals index.
 *
 * History: existing databases have run it, so it is never edited (see `../migrations.ts`); its SQL
 * is the text they ran, byte for byte, indentation included.
 *
 * @module
 */

/** Migration 9, as `schema_migrations` records it. */
export const migration009 = {
  version: 9,
  name: "error_sub_lists_and_daily_totals",
  sql: `
      -- Errors get monthly and one-time lists, as successes have: a page of either is an index
      -- range on (kind, is_monthly, seq_sub), like the success sub-lists. Existing errors are
      -- numbered in the order recorded (seq_all), per list.
      alter table transaction_counters drop constraint transaction_counters_list_check;
      alter table transaction_counters add constraint transaction_counters_list_check check (list in (
        'success-all', 'success-monthly', 'success-one-time', 'error-all', 'error-monthly', 'error-one-time'
      ));
      alter table transactions drop constraint transactions_seq_sub_check;
      update transactions t set seq_sub = x.n
      from (
        select id, row_number() over (partition by is_monthly order by seq_all) as n
        from transactions where kind = 'error'
      ) as x
      where t.id = x.id;
      insert into transaction_counters (list, n)
      select 'error-monthly', count(*) from transactions where kind = 'error' and is_monthly
      union all
      select 'error-one-time', count(*) from transactions where kind = 'error' and not is_monthly;
      alter table transactions add constraint transactions_seq_sub_check check (seq_sub is not null);

      -- Search entries of errors split the same way: 'e' now holds one-time errors, 'r' (recurring)
      -- monthly ones.
      alter table transaction_search drop constraint transaction_search_part_check;
      update transaction_search s set part = 'r'
      from transactions t
      where s.part = 'e' and t.kind = 'error' and t.seq_all = s.seq_all and t.is_monthly;
      alter table transaction_search add constraint transaction_search_part_check
        check (part in ('m', 'o', 'e', 'r'));

      -- dailyTotals: successes by creation time, with what the sums need (index-only scans).
      create index transactions_success_created_at on transactions (created_at) include (currency, amount)
        where kind = 'success';
      analyze transactions;
    `,
};
