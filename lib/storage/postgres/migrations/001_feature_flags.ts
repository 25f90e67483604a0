/**
 * Migration 1, `feature_flags`: the feature flags table.
 *
 * History: existing databases have run it, so it is never edited (see `../migrations.ts`); its SQL
 * is the text they ran, byte for byte, indentation included.
 *
 * @module
 */

/** Migration 1, as `schema_migrations` records it. */
export const migration001 = {
  version: 1,
  name: "feature_flags",
  sql: `
      create table feature_flags (
        flag text primary key,
        enabled boolean not null,
        updated_at timestamptz not null default now()
      );
    `,
};
