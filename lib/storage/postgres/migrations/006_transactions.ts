/**
 * Migration 6, `transactions`: transactions, their list counters and pg_trgm.
 *
 * History: existing databases have run it, so it is never edited (see `../migrations.ts`); its SQL
 * is the text they ran, byte for byte, indentation included.
 *
 * @module
 */

/** Migration 6, as `schema_migrations` records it. */
export const migration006 = {
  version: 6,
  name: "transactions",
  sql: `
      -- pg_trgm is per database, not per schema: it goes into public, once, whichever schema this
      -- store uses (tests migrate many schemas, and dropping one must not drop the extension). The
      -- lock serializes concurrent CREATE EXTENSION from migrations of different schemas, which can
      -- otherwise fail on the catalog's unique index.
      select pg_advisory_xact_lock(hashtext('donations.create_extension.pg_trgm'));
      create extension if not exists pg_trgm with schema public;

      -- One row per sequenced list; n is the list's last sequence number (and its length).
      create table transaction_counters (
        list text primary key
          constraint transaction_counters_list_check
          check (list in ('success-all', 'success-monthly', 'success-one-time', 'error-all')),
        n bigint not null default 0
      );
      insert into transaction_counters (list)
      values ('success-all'), ('success-monthly'), ('success-one-time'), ('error-all');

      create table transactions (
        id text primary key,
        kind text not null constraint transactions_kind_check check (kind in ('success', 'error')),
        status_code text not null,
        is_monthly boolean not null,
        created_at timestamptz not null,
        donor_id text not null,
        user_first_name text not null,
        user_last_name text not null,
        user_email text not null,
        amount bigint,
        currency smallint constraint transactions_currency_check check (currency in (1, 2)),
        result_data jsonb,
        error_message text,
        provider text not null,
        provider_transaction_id text,
        -- Lower-cased email, first and last name (computed by the store, as KV's search does).
        search_text text not null,
        -- Position in success-all or error-all (by kind).
        seq_all bigint not null,
        -- Position in success-monthly or success-one-time (by is_monthly); null for errors.
        seq_sub bigint,
        constraint transactions_provider_transaction_key unique (provider, provider_transaction_id),
        constraint transactions_seq_sub_check check ((kind = 'success') = (seq_sub is not null))
      );
      create unique index transactions_kind_seq_all on transactions (kind, seq_all);
      create unique index transactions_kind_monthly_seq_sub on transactions (kind, is_monthly, seq_sub);
      create index transactions_donor_id on transactions (donor_id);

      -- The operator class lives where the extension does (public, unless an operator installed it
      -- elsewhere before), which need not be on this store's search_path.
      do $$
      begin
        execute format(
          'create index transactions_search_text on transactions using gin (search_text %I.gin_trgm_ops)',
          (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
           where e.extname = 'pg_trgm')
        );
      end
      $$;
    `,
};
