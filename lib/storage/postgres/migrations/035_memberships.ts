/**
 * Migration 35, `memberships`: one membership per donor email (issue 27).
 *
 * - `memberships`: keyed by the normalized email (`collate "C"`, the byte order Deno KV keeps),
 *   its member number unique (`memberships_number`), its terms as `jsonb` (at most 60, oldest
 *   first), `end_at` the end of its last term and `version` bumped by every write. A change is
 *   decided under a transaction-scoped advisory lock per email, in the same transaction as the
 *   payment it comes with (`transactions.record`);
 * - `memberships_end` `(end_at, email)`: `listByEnd`, the renewals and lapses to come, a page at a
 *   time;
 * - `memberships_subscription`: the membership a monthly gift keeps active.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 35, as `schema_migrations` records it. */
export const migration035 = {
  version: 35,
  name: "memberships",
  sql: `
      create table memberships (
        email text collate "C" primary key,
        number text collate "C" not null,
        donor_id text not null,
        subscription_id text,
        terms jsonb not null,
        end_at timestamptz not null,
        created_at timestamptz not null,
        updated_at timestamptz not null,
        version integer not null check (version > 0),
        constraint memberships_number unique (number)
      );
      create index memberships_end on memberships (end_at, email);
      create index memberships_subscription on memberships (subscription_id) where subscription_id is not null;
    `,
} as const;
