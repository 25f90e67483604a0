/**
 * Migration 21, `donor_sessions`: the donor portal's one-time sign-in links and sessions (issue 15).
 *
 * - `donor_sign_ins`: one row per emailed link, keyed by the SHA-256 of its token (the token is never
 *   stored), with the address it was sent to, its expiry and when it was used;
 * - `donor_sessions`: one row per signed-in browser, keyed by the SHA-256 of its cookie's token, with
 *   the address, its expiry and when it was revoked (signed out).
 *
 * Both are indexed by `expires_at` for retention, which deletes by expiry only. And `donors` gets an
 * index by email (`donors.idsByEmail`: the portal treats every donor record of an address as one
 * donor, and must find them without scanning the table).
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 21, as `schema_migrations` records it. */
export const migration021 = {
  version: 21,
  name: "donor_sessions",
  sql: `
      create table donor_sign_ins (
        hash text primary key,
        email text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        used_at timestamptz
      );
      create index donor_sign_ins_expires_at on donor_sign_ins (expires_at);
      create table donor_sessions (
        hash text primary key,
        email text not null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        revoked_at timestamptz
      );
      create index donor_sessions_expires_at on donor_sessions (expires_at);
      create index donors_email on donors (email, id);
    `,
};
