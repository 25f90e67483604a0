/**
 * Migration 11, `record_transaction_function`: the record_transaction function.
 *
 * History: existing databases have run it, so it is never edited (see `../migrations.ts`); its SQL
 * is the text they ran, byte for byte, indentation included.
 *
 * @module
 */

/** Migration 11, as `schema_migrations` records it. */
export const migration011 = {
  version: 11,
  name: "record_transaction_function",
  sql: `
      -- transactions.record in one call. Every record takes the row lock of its list's counter, so
      -- records wait for each other; as a transaction of separate statements the lock stayed held
      -- across round trips to the app (each answer waiting its turn on the app's event loop), which
      -- under load made every payment's return wait (bench/README.md, reliability). Here it is held
      -- only while PostgreSQL runs the function and commits.
      --
      -- p_tx: the transaction's columns as JSON (seq_all and seq_sub are taken here); p_all_list and
      -- p_sub_list: its counters, locked in that order, as import() locks them; p_part and p_values:
      -- its search entries (migrations 7 and 9). A transaction whose (provider,
      -- provider_transaction_id) is recorded already raises SQLSTATE DR001, which rolls back the
      -- numbers taken, so the lists stay dense; the caller then reads the recorded one.
      create function record_transaction(
        p_tx jsonb, p_all_list text, p_sub_list text, p_part "char", p_values text[]
      ) returns transactions
      language plpgsql as $$
      declare
        t transactions := jsonb_populate_record(null::transactions, p_tx);
        recorded transactions;
      begin
        update transaction_counters set n = n + 1 where list = p_all_list returning n into t.seq_all;
        update transaction_counters set n = n + 1 where list = p_sub_list returning n into t.seq_sub;
        insert into transactions (
          id, kind, status_code, is_monthly, created_at, donor_id, user_first_name, user_last_name,
          user_email, amount, currency, result_data, error_message, provider, provider_transaction_id,
          search_text, seq_all, seq_sub
        ) values (
          t.id, t.kind, t.status_code, t.is_monthly, t.created_at, t.donor_id, t.user_first_name,
          t.user_last_name, t.user_email, t.amount, t.currency, t.result_data, t.error_message, t.provider,
          t.provider_transaction_id, t.search_text, t.seq_all, t.seq_sub
        )
        on conflict (provider, provider_transaction_id) do nothing
        returning * into recorded;
        if recorded.id is null then
          raise exception 'transaction already recorded' using errcode = 'DR001';
        end if;
        insert into search_values (value) select v from unnest(p_values) as v on conflict (value) do nothing;
        insert into transaction_search (part, value, seq_all) select p_part, v, t.seq_all from unnest(p_values) as v;
        return recorded;
      end
      $$;
    `,
};
