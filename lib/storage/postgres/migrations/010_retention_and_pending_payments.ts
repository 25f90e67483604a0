/**
 * Migration 10, `retention_and_pending_payments`: the retention sweep's time indexes and pending payments.
 *
 * History: existing databases have run it, so it is never edited (see `../migrations.ts`); its SQL
 * is the text they ran, byte for byte, indentation included.
 *
 * @module
 */

/** Migration 10, as `schema_migrations` records it. */
export const migration010 = {
  version: 10,
  name: "retention_and_pending_payments",
  sql: `
      -- Retention (lib/retention/retention.ts) deletes each kind by the time after which it no longer
      -- matters, a bounded batch per statement: each needs that time indexed, or every batch
      -- would read the whole table.
      create index refresh_tokens_expires_at on refresh_tokens (expires_at);
      create index refresh_token_families_revoked_revoked_at on refresh_token_families_revoked (revoked_at);
      create index throttle_events_at on throttle_events (at);
      create index sandbox_records_updated_at on sandbox_records (updated_at, ref);
      -- Reconciliation (lib/donations/reconcile.ts): pending payments by age. Partial, so it holds
      -- only the few pending ones however many payments have finished.
      create index payments_pending_created_at on payments (created_at, id) where status = 'pending';
    `,
};
