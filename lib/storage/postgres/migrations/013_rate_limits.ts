/**
 * Migration 13, `rate_limits`: fixed-window counters and the clients payments came from.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 13, as `schema_migrations` records it. */
export const migration013 = {
  version: 13,
  name: "rate_limits",
  sql: `
      -- One row per key: its window's count and end (epoch milliseconds, as the contract passes
      -- them). A hit is one upsert of the key's row; retention deletes ended windows by resets_at.
      create table rate_limits (
        key text primary key,
        count integer not null,
        resets_at bigint not null
      );
      create index rate_limits_resets_at on rate_limits (resets_at);
      -- The client address bucket an online payment was started from, until the payment can no
      -- longer be declined (its decline is then counted against that client).
      create table rate_limit_origins (
        payment_id text primary key,
        origin text not null,
        expires_at bigint not null
      );
      create index rate_limit_origins_expires_at on rate_limit_origins (expires_at);
    `,
};
