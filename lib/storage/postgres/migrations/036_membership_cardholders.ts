/**
 * Migration 36, `membership_cardholders`: the people a membership's cards name (issue 27, household
 * levels), as `jsonb` (a list of at most 10 names, `membership_records.ts` checks them); empty for
 * every membership before it, whose one card names the member.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 36, as `schema_migrations` records it. */
export const migration036 = {
  version: 36,
  name: "membership_cardholders",
  sql: `
      alter table memberships add column cardholders jsonb not null default '[]'::jsonb;
    `,
} as const;
