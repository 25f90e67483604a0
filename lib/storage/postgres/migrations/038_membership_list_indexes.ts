/**
 * Migration 38, `membership_list_indexes`: the back office's members list (issue 27, item 8) by
 * level (the level of the last term, then the end and email, as `memberships_end` orders them),
 * and by an address's first characters (byte order, as Deno KV orders its keys, so both backends
 * page a search alike).
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 38, as `schema_migrations` records it. */
export const migration038 = {
  version: 38,
  name: "membership_list_indexes",
  sql: `
      create index memberships_level_end
        on memberships (((terms -> -1 ->> 'levelId')::integer), end_at, email);
      create index memberships_email_bytes on memberships ((email collate "C"));
    `,
} as const;
