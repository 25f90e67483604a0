/**
 * Migration 2, `donors`: the donors table.
 *
 * History: existing databases have run it, so it is never edited (see `../migrations.ts`); its SQL
 * is the text they ran, byte for byte, indentation included.
 *
 * @module
 */

/** Migration 2, as `schema_migrations` records it. */
export const migration002 = {
  version: 2,
  name: "donors",
  sql: `
      create table donors (
        id text primary key,
        first_name text not null,
        last_name text not null,
        email text not null,
        country text not null,
        created_at timestamptz not null,
        payment_date timestamptz,
        next_payment_date timestamptz,
        monthly_payment_available boolean not null default false
      );
    `,
};
