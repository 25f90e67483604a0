/**
 * Migration 22, `subscription_changes`: what a donor's change to a monthly gift needs (issue 15).
 * - `version`: bumped by every write, so a donor's change is written only over the row it read
 *   (`subscriptions.updateIfVersion`) and never lands over a charge's step it did not see;
 * - `paused_from`: while paused, the first period the pause left out (resume restores from it);
 * - `charging`: the reference of the charge billing has started; no change is made meanwhile;
 * - `cancel_reason`: why the donor cancelled, when they said (counted for the back office).
 * Columns with constant defaults (or nullable): no table rewrite on PostgreSQL 11+, instant on a
 * large table. `if not exists` keeps it safe whatever order the migrations merged beside it land in.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 22, as `schema_migrations` records it. */
export const migration022 = {
  version: 22,
  name: "subscription_changes",
  sql: `
      alter table subscriptions add column if not exists version integer not null default 0
        constraint subscriptions_version_check check (version >= 0);
      alter table subscriptions add column if not exists paused_from timestamptz;
      alter table subscriptions add column if not exists charging text;
      alter table subscriptions add column if not exists cancel_reason text;
    `,
};
