/**
 * Migration 5, `throttle_events_and_nonces`: throttle events and nonces.
 *
 * History: existing databases have run it, so it is never edited (see `../migrations.ts`); its SQL
 * is the text they ran, byte for byte, indentation included.
 *
 * @module
 */

/** Migration 5, as `schema_migrations` records it. */
export const migration005 = {
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
};
