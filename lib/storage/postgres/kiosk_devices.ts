/**
 * Kiosk devices on PostgreSQL: the card-terminal kiosks admins paired (issue 13).
 *
 * Table `kiosk_devices` (migration 14): one row per device, keyed by id, with the hashes of its
 * pairing code and device credential (each `unique`, so a sale finds its device by the cookie's
 * hash and a pairing by the code's, through the index each makes). Every change is one conditional
 * `update ... where ... returning`: `pair` matches the code's hash, its expiry and "not revoked" in
 * the `where` and clears the code in the same statement, so the row lock lets exactly one of two
 * uses of one code through; `touch` writes only when the last use is older than the interval, so a
 * busy kiosk costs one write a minute, not one a sale.
 *
 * @module
 */

import { canonicalKioskDevice, checkInteger, isoInstant } from "@/lib/storage/records.ts";
import type { KioskDevice, KioskDeviceRepository } from "@/lib/storage/types.ts";
import { iso, type PgContext } from "./context.ts";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import { insertAudit } from "./audit.ts";

/** The row shape of `kiosk_devices`. */
interface KioskDeviceRow {
  id: string;
  name: string;
  shop_number: string;
  terminal_id: string;
  created_by: string;
  created_at: Date;
  pairing_code_hash: string | null;
  pairing_expires_at: Date | null;
  credential_hash: string | null;
  paired_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const toDevice = (row: KioskDeviceRow): KioskDevice => ({
  id: row.id,
  name: row.name,
  shopNumber: row.shop_number,
  terminalId: row.terminal_id,
  createdBy: row.created_by,
  createdAt: row.created_at.toISOString(),
  pairingCodeHash: row.pairing_code_hash,
  pairingExpiresAt: iso(row.pairing_expires_at),
  credentialHash: row.credential_hash,
  pairedAt: iso(row.paired_at),
  lastUsedAt: iso(row.last_used_at),
  revokedAt: iso(row.revoked_at),
});

const one = (rows: KioskDeviceRow[]): KioskDevice | null => rows[0] ? toDevice(rows[0]) : null;

/**
 * The {@link KioskDeviceRepository} on `kiosk_devices`.
 *
 * @example
 * ```ts
 * const device = await pgKioskDevices(ctx).pair(codeHash, credentialHash, new Date().toISOString());
 * ```
 */
export function pgKioskDevices({ sql }: PgContext): KioskDeviceRepository {
  return {
    async create(input) {
      const d = canonicalKioskDevice(input);
      await sql`
        insert into kiosk_devices (id, name, shop_number, terminal_id, created_by, created_at,
          pairing_code_hash, pairing_expires_at, credential_hash, paired_at, last_used_at, revoked_at)
        values (${d.id}, ${d.name}, ${d.shopNumber}, ${d.terminalId}, ${d.createdBy}, ${d.createdAt},
          ${d.pairingCodeHash}, ${d.pairingExpiresAt}, ${d.credentialHash}, ${d.pairedAt}, ${d.lastUsedAt},
          ${d.revokedAt})
      `;
    },

    async get(id) {
      return one(await sql<KioskDeviceRow[]>`select * from kiosk_devices where id = ${id}`);
    },

    async list() {
      const rows = await sql<KioskDeviceRow[]>`
        select * from kiosk_devices order by created_at desc, id limit 1000
      `;
      return rows.map(toDevice);
    },

    async setPairingCode(id, codeHash, expiresAt, options = {}) {
      const audit = auditEntries(options.audit, options.at ?? new Date().toISOString(), MAX_AUDIT_PER_CAUSE);
      // One statement: the entry is written only when the device was updated.
      return one(
        await sql<KioskDeviceRow[]>`
          with changed as (
            update kiosk_devices
            set pairing_code_hash = ${codeHash}, pairing_expires_at = ${isoInstant(expiresAt, "expiresAt")}
            where id = ${id} and revoked_at is null
            returning *
          ), logged as (
            ${
          audit.length > 0
            ? insertAudit(sql, audit, sql`where exists (select 1 from changed)`)
            : sql`select 1`
        }
          )
          select * from changed
        `,
      );
    },

    async pair(codeHash, credentialHash, now) {
      const at = isoInstant(now, "now");
      // The row lock makes a second use of the same code wait, then find the code gone.
      return one(
        await sql<KioskDeviceRow[]>`
          update kiosk_devices
          set credential_hash = ${credentialHash}, paired_at = ${at}, last_used_at = ${at},
            pairing_code_hash = null, pairing_expires_at = null
          where pairing_code_hash = ${codeHash} and pairing_expires_at > ${at} and revoked_at is null
          returning *
        `,
      );
    },

    async byCredential(credentialHash) {
      return one(
        await sql<KioskDeviceRow[]>`select * from kiosk_devices where credential_hash = ${credentialHash}`,
      );
    },

    async touch(id, at, minIntervalMs) {
      const when = isoInstant(at, "at");
      checkInteger(minIntervalMs, "minIntervalMs", 0);
      const since = new Date(Date.parse(when) - minIntervalMs).toISOString();
      await sql`
        update kiosk_devices set last_used_at = ${when}
        where id = ${id} and (last_used_at is null or last_used_at <= ${since})
      `;
    },

    async revoke(id, at, options = {}) {
      const when = isoInstant(at, "at");
      const audit = auditEntries(options.audit, when, MAX_AUDIT_PER_CAUSE);
      // Only the revoking update writes the entry; a device revoked before is answered as it is
      // (the outer select sees the statement's snapshot: the row as it was).
      return one(
        await sql<KioskDeviceRow[]>`
          with changed as (
            update kiosk_devices
            set revoked_at = ${when}, pairing_code_hash = null, pairing_expires_at = null
            where id = ${id} and revoked_at is null
            returning *
          ), logged as (
            ${
          audit.length > 0
            ? insertAudit(sql, audit, sql`where exists (select 1 from changed)`)
            : sql`select 1`
        }
          )
          select * from changed
          union all
          select * from kiosk_devices where id = ${id} and not exists (select 1 from changed)
        `,
      );
    },
  };
}
