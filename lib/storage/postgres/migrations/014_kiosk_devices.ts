/**
 * Migration 14, `kiosk_devices`: the paired card-terminal kiosks (issue 13, `../kiosk_devices.ts`).
 *
 * History: once released it is never edited (see `../migrations.ts`).
 *
 * @module
 */

/** Migration 14, as `schema_migrations` records it. */
export const migration014 = {
  version: 14,
  name: "kiosk_devices",
  sql: `
      -- One row per kiosk device. Only hashes of its two secrets are kept: the one-time pairing
      -- code and the device credential, each unique so that each is looked up by its hash.
      create table kiosk_devices (
        id text primary key,
        name text not null,
        shop_number text not null,
        terminal_id text not null,
        created_by text not null,
        created_at timestamptz not null,
        pairing_code_hash text unique,
        pairing_expires_at timestamptz,
        credential_hash text unique,
        paired_at timestamptz,
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      create index kiosk_devices_created_at on kiosk_devices (created_at desc, id);
    `,
};
