/**
 * Migration 18, `receipts`: legal receipts and their gapless numbering (issue 14, `../receipts.ts`).
 *
 * History: once released it is never edited (see `../migrations.ts`).
 *
 * @module
 */

/** Migration 18, as `schema_migrations` records it. */
export const migration018 = {
  version: 18,
  name: "receipts",
  sql: `
      -- The last number issued in each series (e.g. IL-2026). Moved in the same transaction as the
      -- receipt that takes the number, under the row's lock: a rolled-back issue gives it back.
      create table receipt_counters (
        series text primary key,
        last_value bigint not null
      );
      -- One row per receipt, never deleted; what it prints is kept as issued.
      create table receipts (
        id text primary key,
        series text not null,
        sequence bigint not null,
        number text not null unique,
        transaction_id text not null unique,
        donor_id text not null,
        email text not null,
        issued_at timestamptz not null,
        gift_date timestamptz not null,
        donor_name text not null,
        donor_tax_id text,
        amount bigint not null,
        currency text not null,
        is_monthly boolean not null,
        payment_method text not null,
        card_last4 text,
        issuer jsonb not null,
        report_number text,
        unique (series, sequence)
      );
      create index receipts_by_donor on receipts (donor_id, issued_at desc, number desc);
      create index receipts_by_email on receipts (email, issued_at desc, number desc);
    `,
};
