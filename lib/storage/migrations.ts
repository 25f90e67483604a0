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
  {
    version: 7,
    name: "transaction_search_values",
    sql: `
      -- Searching 1,000,000 transactions through the trigram index on transactions.search_text
      -- costs a visit to the wide row of every match (0.7 s for a name on 2.5% of them, measured by
      -- bench/api.ts), because the total counts them all. Instead: the distinct donor fields
      -- (email, first name, last name; lower-cased by the store) are kept once each in
      -- search_values, where the trigram index finds the few that contain a term, and
      -- transaction_search lists, per part of the lists and field value, the transactions that
      -- carry it: the total is an index-only count of their entries, a page the newest entries of
      -- each value. Parts: 'm' monthly and 'o' one-time successes, 'e' errors.
      create table search_values (
        value text collate "C" primary key
      );
      create table transaction_search (
        part "char" not null constraint transaction_search_part_check check (part in ('m', 'o', 'e')),
        value text collate "C" not null,
        -- transactions.seq_all of the transaction (its position in success-all or error-all; within
        -- a part, the same order as seq_sub).
        seq_all bigint not null,
        constraint transaction_search_pkey primary key (part, value, seq_all)
      );

      insert into search_values (value)
      select distinct f.value
      from transactions t, unnest(string_to_array(t.search_text, E'\\x1f')) as f (value)
      where f.value <> '';
      insert into transaction_search (part, value, seq_all)
      select distinct
        case when t.kind = 'error' then 'e' when t.is_monthly then 'm' else 'o' end,
        f.value,
        t.seq_all
      from transactions t, unnest(string_to_array(t.search_text, E'\\x1f')) as f (value)
      where f.value <> '';

      do $$
      begin
        execute format(
          'create index search_values_trgm on search_values using gin (value %I.gin_trgm_ops)',
          (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
           where e.extname = 'pg_trgm')
        );
      end
      $$;
      -- Searches no longer read it; every insert paid for it.
      drop index transactions_search_text;
      -- Plans for the new tables from the first query on (autovacuum also sets their visibility
      -- maps, which index-only scans need, within a minute or so).
      analyze search_values;
      analyze transaction_search;
    `,
  },
  {
    version: 8,
    name: "payments_billing_sandbox",
    sql: `
      create table payments (
        id text collate "C" primary key,
        donor_id text not null,
        amount bigint not null,
        currency smallint not null constraint payments_currency_check check (currency in (1, 2)),
        is_monthly boolean not null,
        language text not null,
        channel text not null
          constraint payments_channel_check check (channel in ('online', 'terminal', 'test-terminal')),
        shop_number text,
        provider text not null,
        provider_ref text,
        page_url text,
        user_key text not null,
        confirmation_key text,
        status text not null
          constraint payments_status_check check (status in ('pending', 'succeeded', 'failed')),
        transaction_id text,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        -- The createOrReuse dedupe key, set on the one payment a repeat of the request may reuse
        -- (the latest created with that key) and cleared when a newer one takes it over.
        dedupe_key text
      );
      create unique index payments_dedupe_key on payments (dedupe_key) where dedupe_key is not null;
      create index payments_provider_ref on payments (provider, provider_ref) where provider_ref is not null;

      create table subscriptions (
        id text collate "C" primary key,
        donor_id text not null,
        amount bigint not null,
        currency smallint not null constraint subscriptions_currency_check check (currency in (1, 2)),
        provider text not null,
        token text not null,
        card_masked text,
        language text not null,
        status text not null
          constraint subscriptions_status_check check (status in ('active', 'cancelled', 'failed')),
        created_at timestamptz not null,
        payment_date timestamptz,
        next_payment_date timestamptz not null,
        failed_attempts integer not null constraint subscriptions_failed_attempts_check check (failed_attempts >= 0),
        retry_at timestamptz,
        cancelled_at timestamptz
      );
      create index subscriptions_donor_id on subscriptions (donor_id, created_at, id);
      -- listDue: the active subscriptions by their due time, the later of next_payment_date and
      -- retry_at (greatest() skips a null retry_at), ties by id. "Due at now" is then one index
      -- range read in the order answered, however many subscriptions are not due.
      create index subscriptions_due on subscriptions (greatest(next_payment_date, retry_at), id)
        where status = 'active';

      create table charges (
        subscription_id text collate "C" not null,
        period timestamptz not null,
        attempt integer not null constraint charges_attempt_check check (attempt >= 0),
        status text not null
          constraint charges_status_check check (status in ('started', 'succeeded', 'failed')),
        reference text not null,
        started_at timestamptz not null,
        finished_at timestamptz,
        transaction_id text,
        constraint charges_pkey primary key (subscription_id, period, attempt)
      );
      -- listStale: charges still started, oldest first.
      create index charges_started on charges (started_at, subscription_id, period, attempt)
        where status = 'started';

      -- Times are epoch milliseconds, as the contract passes them.
      create table leases (
        name text primary key,
        holder text not null,
        expires_at bigint not null
      );

      create table sandbox_records (
        ref text collate "C" primary key,
        kind text not null
          constraint sandbox_records_kind_check check (kind in ('hosted', 'token', 'terminal', 'charge')),
        status text not null,
        reference text not null,
        terminal_id text,
        amount bigint not null,
        currency smallint not null constraint sandbox_records_currency_check check (currency in (1, 2)),
        created_at timestamptz not null,
        updated_at timestamptz not null,
        data jsonb not null default '{}'
      );
      create index sandbox_records_reference on sandbox_records (reference, created_at, ref);
      create index sandbox_records_terminal on sandbox_records (terminal_id, status, created_at, ref)
        where terminal_id is not null;
    `,
  },
  {
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
  },
  {
    version: 10,
    name: "retention_and_pending_payments",
    sql: `
      -- Retention (lib/retention.ts) deletes each kind by the time after which it no longer
      -- matters, a bounded batch per statement: each needs that time indexed, or every batch
      -- would read the whole table.
      create index refresh_tokens_expires_at on refresh_tokens (expires_at);
      create index refresh_token_families_revoked_revoked_at on refresh_token_families_revoked (revoked_at);
      create index throttle_events_at on throttle_events (at);
      create index sandbox_records_updated_at on sandbox_records (updated_at, ref);
      -- Reconciliation (lib/payments/reconcile.ts): pending payments by age. Partial, so it holds
      -- only the few pending ones however many payments have finished.
      create index payments_pending_created_at on payments (created_at, id) where status = 'pending';
    `,
  },
  {
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
  },
  {
    version: 12,
    name: "create_or_reuse_payment_function",
    sql: `
      -- payments.createOrReuse in one call, for the reason of migration 11: as a transaction of
      -- four statements it held one of the pool's transaction connections across five round trips
      -- to the app, and under load every payment's create waited about a second for one.
      --
      -- One decision per dedupe key at a time (an advisory lock on a hash of the key; other keys do
      -- not wait; released at commit). The payment a repeat may reuse carries the key in
      -- dedupe_key: one still pending and created less than p_window_ms before p_now_ms is answered
      -- as it is; an older or finished one gives the key up to the new payment (p_payment, its
      -- columns as JSON), which is inserted and answered. The caller tells the two apart by id.
      create function create_or_reuse_payment(
        p_payment jsonb, p_dedupe_key text, p_window_ms bigint, p_now_ms bigint
      ) returns payments
      language plpgsql as $$
      declare
        p payments := jsonb_populate_record(null::payments, p_payment);
        holder payments;
        created payments;
      begin
        perform pg_advisory_xact_lock(
          hashtextextended('donations.payments.dedupe:' || current_schema() || ':' || p_dedupe_key, 0)
        );
        -- A new statement after the lock (this function is volatile): it sees the payment of every
        -- decision committed before.
        select * into holder from payments where dedupe_key = p_dedupe_key;
        if holder.id is not null and holder.status = 'pending'
          and p_now_ms - extract(epoch from holder.created_at) * 1000 < p_window_ms then
          return holder;
        end if;
        if holder.id is not null then
          update payments set dedupe_key = null where id = holder.id;
        end if;
        insert into payments (
          id, donor_id, amount, currency, is_monthly, language, channel, shop_number, provider,
          provider_ref, page_url, user_key, confirmation_key, status, transaction_id, created_at,
          updated_at, dedupe_key
        ) values (
          p.id, p.donor_id, p.amount, p.currency, p.is_monthly, p.language, p.channel, p.shop_number,
          p.provider, p.provider_ref, p.page_url, p.user_key, p.confirmation_key, p.status,
          p.transaction_id, p.created_at, p.updated_at, p_dedupe_key
        )
        returning * into created;
        return created;
      end
      $$;
    `,
  },
];
