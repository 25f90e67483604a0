/**
 * The PostgreSQL schema, as an ordered list of migrations.
 *
 * `openPostgresStore` applies the pending ones at open, in one transaction, and records each in
 * `schema_migrations`. Rules, because a migration that already ran on some database is history:
 * - append only: never edit, renumber or remove a migration that has been merged;
 * - versions are consecutive integers starting at 1;
 * - write plain SQL with unqualified names: the store's `search_path` decides the schema, which is
 *   how tests run on throwaway schemas;
 * - several statements in one `sql` are fine (it runs over the simple query protocol).
 *
 * @module
 */

/** One step of the schema. */
export interface Migration {
  /** Position in the history: 1, 2, 3, ... */
  readonly version: number;
  /** A short snake_case name, recorded next to the version for humans. */
  readonly name: string;
  /** The SQL to run, once, inside the migration transaction. */
  readonly sql: string;
}

/**
 * Every migration, oldest first.
 *
 * @example Inspect the latest version
 * ```ts
 * import { migrations } from "./migrations.ts";
 * console.log(migrations.at(-1)?.version);
 * ```
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: "feature_flags",
    sql: `
      create table feature_flags (
        flag text primary key,
        enabled boolean not null,
        updated_at timestamptz not null default now()
      );
    `,
  },
  {
    version: 2,
    name: "donors",
    sql: `
      create table donors (
        id text primary key,
        first_name text not null,
        last_name text not null,
        email text not null,
        country text not null,
        created_at timestamptz not null,
        payment_date timestamptz,
        next_payment_date timestamptz,
        monthly_payment_available boolean not null default false
      );
    `,
  },
  {
    version: 3,
    name: "admins",
    sql: `
      create table admins (
        id text primary key,
        -- Normalized by the store (trimmed, lower case) before it gets here.
        email text not null constraint admins_email_key unique,
        name text not null,
        password_hash text not null,
        status text not null constraint admins_status_check check (status in ('approved', 'pending', 'rejected')),
        created_at timestamptz not null,
        decided_by text,
        decided_at timestamptz
      );
      -- listByStatus: oldest first within a status; also answers "is any admin approved?".
      create index admins_status_created_at on admins (status, created_at, id);
    `,
  },
  {
    version: 4,
    name: "refresh_tokens",
    sql: `
      create table refresh_tokens (
        hash text primary key,
        admin_id text not null,
        family_id text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      );
      create index refresh_tokens_family_id on refresh_tokens (family_id);
      create index refresh_tokens_admin_id on refresh_tokens (admin_id);
      create table refresh_token_families_revoked (
        family_id text primary key,
        revoked_at timestamptz not null
      );
    `,
  },
  {
    version: 5,
    name: "throttle_events_and_nonces",
    sql: `
      -- Times are epoch milliseconds, as the contract passes them.
      create table throttle_events (
        id bigint generated always as identity primary key,
        key text not null,
        at bigint not null
      );
      create index throttle_events_key_at on throttle_events (key, at);
      create table nonces (
        nonce text primary key,
        expires_at bigint not null
      );
      create index nonces_expires_at on nonces (expires_at);
    `,
  },
  {
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
  },
];
