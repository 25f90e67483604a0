/**
 * Migration 23, `subscription_cancel_reasons`: the back office counts why donors cancelled their
 * monthly gifts (issue 15), `subscriptions.countCancelReasons`. A partial index of the rows that
 * have a `cancel_reason` (migration 22) makes that count an index-only scan of the cancellations
 * that gave a reason, however many subscriptions there are; it costs nothing on the rows without
 * one (every active gift), so billing's writes are not slowed. `if not exists` keeps it safe
 * whatever order the migrations merged beside it landed in.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 23, as `schema_migrations` records it. */
export const migration023 = {
  version: 23,
  name: "subscription_cancel_reasons",
  sql: `
      create index if not exists subscriptions_cancel_reason on subscriptions (cancel_reason)
        where cancel_reason is not null;
    `,
};
