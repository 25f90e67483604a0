/**
 * Migration 40, `museum_images`: the museum's uploaded images (issue 27: its logo and its hero's
 * image), each one row under the hex SHA-256 of its bytes, which the settings name.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 40, as `schema_migrations` records it. */
export const migration040 = {
  version: 40,
  name: "museum_images",
  sql: `
      create table museum_images (
        hash text primary key check (hash ~ '^[0-9a-f]{64}$'),
        type text not null,
        bytes bytea not null
      );
    `,
} as const;
