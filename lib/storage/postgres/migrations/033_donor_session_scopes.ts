/**
 * Migration 33, `donor_session_scopes`: what a donor's session may reach, and sessions and sign-in
 * links found by email (issue 23).
 *
 * - `donor_sessions` gets `scope` (`full`: made by a one-time sign-in link, every donor record of
 *   the address; `manage`: made by a donor email's manage link) and `donor_id` (the one donor
 *   record a `manage` session reaches; null for `full`), checked together. The sessions already
 *   stored are deleted first: any of them may have been made by the old manage link, which reached
 *   everything, and none can be told apart; sessions last a day, so at most a day's donors sign in
 *   again.
 * - `donor_sessions_email` and `donor_sign_ins_email`: an address's sessions (newest first, for the
 *   limit of sessions per address) and links, so a donor's erasure deletes them without reading
 *   anyone else's.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 33, as `schema_migrations` records it. */
export const migration033 = {
  version: 33,
  name: "donor_session_scopes",
  sql: `
      delete from donor_sessions;
      alter table donor_sessions
        add column scope text not null check (scope in ('full', 'manage')),
        add column donor_id text,
        add constraint donor_sessions_scope_donor check ((scope = 'manage') = (donor_id is not null));
      create index donor_sessions_email on donor_sessions (email, created_at);
      create index donor_sign_ins_email on donor_sign_ins (email);
    `,
};
