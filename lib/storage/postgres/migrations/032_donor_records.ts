/**
 * Migration 32, `donor_records`: reading and keeping every donor record of one address (issue 23).
 *
 * - `donors_email_c` on `(email, id collate "C")` replaces migration 21's `donors_email`: the
 *   donor portal pages through an address's records after a cursor in byte order (as Deno KV
 *   orders keys), so the index must hold that order whatever the database's collation; it serves
 *   `email = …` alone as well.
 * - `payments_donor_id`: whether any payment names a donor (`donors.deleteUnused`: a record a
 *   payment may still record a gift for is never recycled), one index probe instead of a scan.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 32, as `schema_migrations` records it. */
export const migration032 = {
  version: 32,
  name: "donor_records",
  sql: `
      create index donors_email_c on donors (email, id collate "C");
      drop index if exists donors_email;
      create index payments_donor_id on payments (donor_id);
    `,
};
