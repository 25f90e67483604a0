/**
 * Migration 3, `admins`: the admins table, its unique email and its status index.
 *
 * History: existing databases have run it, so it is never edited (see `../migrations.ts`); its SQL
 * is the text they ran, byte for byte, indentation included.
 *
 * @module
 */

/** Migration 3, as `schema_migrations` records it. */
export const migration003 = {
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
};
