/**
 * Migration 4, `refresh_tokens`: refresh tokens and revoked token families.
 *
 * History: existing databases have run it, so it is never edited (see `../migrations.ts`); its SQL
 * is the text they ran, byte for byte, indentation included.
 *
 * @module
 */

/** Migration 4, as `schema_migrations` records it. */
export const migration004 = {
  version: 4,
  name: "refresh_tokens",
  sql: `
      create table refresh_tokens (
        hash text primary key,
        admin_id text not null,
        family_id text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      );
      create index refresh_tokens_family_id on refresh_tokens (family_id);
      create index refresh_tokens_admin_id on refresh_tokens (admin_id);
      create table refresh_token_families_revoked (
        family_id text primary key,
        revoked_at timestamptz not null
      );
    `,
};
