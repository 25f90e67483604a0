/**
 * Migration 37 (issue 27), `receipt_membership`: the membership level a receipt's gift was at, as it
 * was when the receipt was issued (`ReceiptMembership`: the level's id and names, the value of its
 * benefits, its donation share and the amount stated as given), as `jsonb`; null for every receipt
 * before it and for a plain donation's.
 *
 * Numbered 41 by the lead's plan for issue 27 (37 to 40 are other helpers'); until they are merged
 * this branch runs it as version 37, the next after 36 (`../migrations.ts` wants consecutive
 * versions): the lead renumbers at merge.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 37, as `schema_migrations` records it. */
export const migration037 = {
  version: 37,
  name: "receipt_membership",
  sql: `
      alter table receipts add column membership jsonb;
    `,
} as const;
