/**
 * Migration 19, `donor_israeli_id`: the donor's Israeli ID number (ת.ז.) for Section 46 receipts
 * (issue 14). A nullable column, so existing donors (and every donor who wants no Israeli receipt)
 * have none; the table checks its shape itself (nine digits), as `canonicalDonor` does for Deno KV,
 * so no writer can store a malformed number. Adding a nullable column without a default rewrites
 * nothing: instant on a large table. `if not exists` makes it safe whatever order the migrations
 * merged beside it (issue 14 added several at once) end up in.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 19, as `schema_migrations` records it. */
export const migration019 = {
  version: 19,
  name: "donor_israeli_id",
  sql: `
      alter table donors add column if not exists israeli_id text
        constraint donors_israeli_id_nine_digits check (israeli_id ~ '^[0-9]{9}$');
    `,
};
