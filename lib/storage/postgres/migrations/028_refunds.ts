/**
 * Migration 28, `refunds`: money given back on a successful gift (issue 16).
 *
 * One row per refund; `(transaction_id, idem_key)` is unique (a double click or a retried request
 * is one refund). No foreign key to `transactions`: the refund reads the transaction first, and a
 * transaction is never deleted while its refunds matter (retention keeps successful gifts).
 * `refunds.begin` serializes the refunds of one transaction with a transaction-scoped advisory lock
 * before it sums them, so "never more than paid" holds under concurrent refunds. The partial index of
 * the pending refunds is what the reconciliation pass reads (`refunds.listPending`).
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 28, as `schema_migrations` records it. */
export const migration028 = {
  version: 28,
  name: "refunds",
  sql: `
      create table refunds (
        id text primary key,
        transaction_id text not null,
        idem_key text not null,
        amount bigint not null check (amount > 0),
        currency smallint not null check (currency in (1, 2)),
        reason text not null,
        note text not null,
        actor_id text not null,
        actor_email text not null,
        cancel_monthly boolean not null,
        created_at timestamptz not null,
        state text not null check (state in ('pending', 'succeeded', 'failed')),
        provider_ref text,
        error text,
        settled_at timestamptz,
        constraint refunds_key_unique unique (transaction_id, idem_key)
      );
      create index refunds_pending_created_at on refunds (created_at, id) where state = 'pending';
    `,
} as const;
