/**
 * Migration 8, `payments_billing_sandbox`: payments, subscriptions, charges, leases and sandbox records.
 *
 * History: existing databases have run it, so it is never edited (see `../migrations.ts`); its SQL
 * is the text they ran, byte for byte, indentation included.
 *
 * @module
 */

/** Migration 8, as `schema_migrations` records it. */
export const migration008 = {
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
};
