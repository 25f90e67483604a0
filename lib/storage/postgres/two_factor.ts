/**
 * The staff's two-factor sign-in on PostgreSQL.
 *
 * Tables (migration 29): `admin_two_factor`, one row per admin (sealed secret, `enrolled_at`,
 * `recovery_hashes text[]`, `last_step`), and `two_factor_policy`, one row: the museum-wide
 * requirement.
 *
 * Each use is one conditional `update`: a time step only `where last_step < step`, a recovery code
 * only `where hash = any(recovery_hashes)` (removed by `array_remove` in the same statement), so
 * the row lock makes a second use at once wait, re-check and find it spent. Changes with audit
 * entries (confirm, reset, the requirement) run in a transaction with `insertAudit`: the entry
 * commits with the change or neither does. `state` is one query over both tables, since every
 * admin request asks it.
 *
 * @module
 */

import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import {
  checkAdminId,
  checkAt,
  checkRecoveryHash,
  checkRecoveryHashes,
  checkSealedSecret,
  checkStep,
} from "@/lib/storage/two_factor_records.ts";
import type { TwoFactorRecord, TwoFactorRepository } from "@/lib/storage/two_factor_types.ts";
import { insertAudit } from "./audit.ts";
import { iso, type PgContext } from "./context.ts";

/** The row shape of `admin_two_factor`. */
interface TwoFactorRow {
  admin_id: string;
  sealed_secret: string;
  enrolled_at: Date | null;
  recovery_hashes: string[];
  last_step: string | number;
  updated_at: Date;
}

const toRecord = (row: TwoFactorRow): TwoFactorRecord => ({
  adminId: row.admin_id,
  sealedSecret: row.sealed_secret,
  enrolledAt: iso(row.enrolled_at),
  recoveryHashes: row.recovery_hashes,
  lastStep: Number(row.last_step),
  updatedAt: row.updated_at.toISOString(),
});

/**
 * The {@link TwoFactorRepository} on `admin_two_factor` and `two_factor_policy`.
 *
 * @example
 * ```ts
 * const { required, enrolled } = await pgTwoFactor(ctx).state(adminId);
 * ```
 */
export function pgTwoFactor({ sql, transaction }: PgContext): TwoFactorRepository {
  return {
    async get(adminId) {
      const [row] = await sql<TwoFactorRow[]>`
        select * from admin_two_factor where admin_id = ${checkAdminId(adminId)}
      `;
      return row ? toRecord(row) : null;
    },

    async state(adminId) {
      const [row] = await sql<{ required: boolean; enrolled: boolean }[]>`
        select p.required, exists (
          select 1 from admin_two_factor
          where admin_id = ${checkAdminId(adminId)} and enrolled_at is not null
        ) as enrolled
        from two_factor_policy p
      `;
      return { required: row?.required === true, enrolled: row?.enrolled === true };
    },

    async begin(adminId, sealedSecret, at) {
      const rows = await sql`
        insert into admin_two_factor (admin_id, sealed_secret, enrolled_at, recovery_hashes, last_step, updated_at)
        values (${checkAdminId(adminId)}, ${checkSealedSecret(sealedSecret)}, null, '{}', 0, ${checkAt(at)})
        on conflict (admin_id) do update
          set sealed_secret = excluded.sealed_secret, recovery_hashes = '{}', last_step = 0,
            updated_at = excluded.updated_at
          where admin_two_factor.enrolled_at is null
        returning 1
      `;
      return rows.length === 1;
    },

    async confirm(adminId, sealedSecret, recoveryHashes, step, at, options = {}) {
      const id = checkAdminId(adminId);
      const secret = checkSealedSecret(sealedSecret);
      const hashes = checkRecoveryHashes(recoveryHashes);
      const lastStep = checkStep(step);
      const when = checkAt(at);
      const audit = auditEntries(options.audit, when, MAX_AUDIT_PER_CAUSE);
      return await transaction(async (tx) => {
        const [row] = await tx<TwoFactorRow[]>`
          update admin_two_factor
          set enrolled_at = ${when}, recovery_hashes = ${hashes}, last_step = ${lastStep}, updated_at = ${when}
          where admin_id = ${id} and enrolled_at is null and sealed_secret = ${secret}
          returning *
        `;
        if (!row) return null;
        if (audit.length > 0) await insertAudit(tx, audit);
        return toRecord(row);
      });
    },

    async useStep(adminId, step, at) {
      const checked = checkStep(step);
      const rows = await sql`
        update admin_two_factor set last_step = ${checked}, updated_at = ${checkAt(at)}
        where admin_id = ${checkAdminId(adminId)} and enrolled_at is not null and last_step < ${checked}
        returning 1
      `;
      return rows.length === 1;
    },

    async useRecoveryCode(adminId, hash, at) {
      const checked = checkRecoveryHash(hash);
      const rows = await sql`
        update admin_two_factor
        set recovery_hashes = array_remove(recovery_hashes, ${checked}), updated_at = ${checkAt(at)}
        where admin_id = ${checkAdminId(adminId)} and enrolled_at is not null
          and ${checked} = any(recovery_hashes)
        returning 1
      `;
      return rows.length === 1;
    },

    async replaceRecoveryCodes(adminId, step, recoveryHashes, at, options = {}) {
      const id = checkAdminId(adminId);
      const checked = checkStep(step);
      const hashes = checkRecoveryHashes(recoveryHashes);
      const when = checkAt(at);
      const audit = auditEntries(options.audit, when, MAX_AUDIT_PER_CAUSE);
      return await transaction(async (tx) => {
        const rows = await tx`
          update admin_two_factor
          set recovery_hashes = ${hashes}, last_step = ${checked}, updated_at = ${when}
          where admin_id = ${id} and enrolled_at is not null and last_step < ${checked}
          returning 1
        `;
        if (rows.length === 0) return false;
        if (audit.length > 0) await insertAudit(tx, audit);
        return true;
      });
    },

    async disable(adminId, step, at, options = {}) {
      const id = checkAdminId(adminId);
      const checked = checkStep(step);
      const audit = auditEntries(options.audit, checkAt(at), MAX_AUDIT_PER_CAUSE);
      return await transaction(async (tx) => {
        const rows = await tx`
          delete from admin_two_factor
          where admin_id = ${id} and enrolled_at is not null and last_step < ${checked}
          returning 1
        `;
        if (rows.length === 0) return false;
        if (audit.length > 0) await insertAudit(tx, audit);
        return true;
      });
    },

    async reset(adminId, at, options = {}) {
      const id = checkAdminId(adminId);
      const audit = auditEntries(options.audit, checkAt(at), MAX_AUDIT_PER_CAUSE);
      return await transaction(async (tx) => {
        const rows = await tx`delete from admin_two_factor where admin_id = ${id} returning 1`;
        if (rows.length === 0) return false;
        if (audit.length > 0) await insertAudit(tx, audit);
        return true;
      });
    },

    async required() {
      const [row] = await sql<{ required: boolean }[]>`select required from two_factor_policy`;
      return row?.required === true;
    },

    async setRequired(required, at, options = {}) {
      if (typeof required !== "boolean") throw new RangeError("required must be a boolean");
      const when = checkAt(at);
      const audit = auditEntries(options.audit, when, MAX_AUDIT_PER_CAUSE);
      return await transaction(async (tx) => {
        // The row lock orders two owners switching at once: the second sees the first's value.
        const [row] = await tx<{ required: boolean }[]>`select required from two_factor_policy for update`;
        const before = row.required;
        if (before === required) return before;
        await tx`update two_factor_policy set required = ${required}, updated_at = ${when}`;
        if (audit.length > 0) await insertAudit(tx, audit);
        return before;
      });
    },
  };
}
