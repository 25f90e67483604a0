/**
 * Migration 24, `donor_privacy`: what the donor portal's privacy needs (issue 15, item 4).
 * - `donors.erased_at`: when the donor's personal fields were erased at their request
 *   (`donors.erase`); null for everyone else. A nullable column: no table rewrite.
 * - `outbox_by_donor`: the messages to one donor, newest first (`outbox.listByDonors`, the data
 *   export), one index range per donor instead of a scan of the outbox. Admins' messages have no
 *   `donorId` and sit together under null, never read by it.
 * `if not exists` keeps it safe whatever order the migrations merged beside it land in.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 24, as `schema_migrations` records it. */
export const migration024 = {
  version: 24,
  name: "donor_privacy",
  sql: `
      alter table donors add column if not exists erased_at timestamptz;
      create index if not exists outbox_by_donor on outbox ((recipient->>'donorId'), created_at desc, key desc);
    `,
};
