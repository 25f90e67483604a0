/**
 * Migration 29, `two_factor`: the staff's two-factor sign-in (issue 16).
 *
 * `admin_two_factor`: one row per admin that began or confirmed an enrolment: the sealed TOTP
 * secret, when it was confirmed (null until then), the keyed hashes of the unused recovery codes
 * and the last time step accepted. No foreign key to `admins`: admins are never deleted, and the
 * storage contract writes this concept on its own. `two_factor_policy`: the museum-wide
 * requirement, one row (written here, so every change is an `update` of a row that exists and can
 * be locked).
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 29, as `schema_migrations` records it. */
export const migration029 = {
  version: 29,
  name: "two_factor",
  sql: `
      create table admin_two_factor (
        admin_id text primary key,
        sealed_secret text not null,
        enrolled_at timestamptz,
        recovery_hashes text[] not null default '{}',
        last_step bigint not null default 0 check (last_step >= 0),
        updated_at timestamptz not null
      );
      create table two_factor_policy (
        id boolean primary key default true check (id),
        required boolean not null,
        updated_at timestamptz not null
      );
      insert into two_factor_policy (id, required, updated_at) values (true, false, now());
    `,
} as const;
