/**
 * Migration 31, `refund_cards`: money goes back only to the card that paid (issue 23).
 *
 * - `transactions.card_token`: the provider's card token a payment was charged with (a monthly
 *   gift's), through which alone a refund credits it; null when charged without one or recorded
 *   before this migration. `record_transaction` (migration 11) is replaced by the same function
 *   writing it too; `import` inserts it as a column;
 * - `charges.token`: the token a charge is sent with, so a charge a dead pass left behind is
 *   recorded with it even when the gift's card was replaced meanwhile;
 * - `card_updates_subscription`: a gift's card-update history (`cardUpdates.listBySubscription`),
 *   which tells whether the card of a monthly charge recorded without its token can still be known;
 * - `refunds.failure_reported_*`: who recorded that a pending refund did not go through, and when;
 *   it stays pending until an owner, another person, confirms it.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 31, as `schema_migrations` records it. */
export const migration031 = {
  version: 31,
  name: "refund_cards",
  sql: `
      alter table transactions add column card_token text;
      alter table charges add column token text;
      create index card_updates_subscription on card_updates (subscription_id, created_at, id);
      alter table refunds
        add column failure_reported_by text,
        add column failure_reported_email text,
        add column failure_reported_at timestamptz;
      -- record_transaction of migration 11, writing card_token too.
      create or replace function record_transaction(
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
          search_text, seq_all, seq_sub, card_token
        ) values (
          t.id, t.kind, t.status_code, t.is_monthly, t.created_at, t.donor_id, t.user_first_name,
          t.user_last_name, t.user_email, t.amount, t.currency, t.result_data, t.error_message, t.provider,
          t.provider_transaction_id, t.search_text, t.seq_all, t.seq_sub, t.card_token
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
} as const;
