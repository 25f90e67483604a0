/**
 * Admins on PostgreSQL.
 *
 * Table `admins` (migration 3): one row per admin, keyed by id; `email` is stored normalized
 * (trimmed, lower case) under the unique constraint `admins_email_key`, so two registrations of
 * one address cannot both land: the second fails on the constraint, answered as
 * {@link EmailTakenError}. The index `admins_status_created_at` `(status, created_at, id)` lists
 * a status oldest first and answers "is any admin approved?".
 *
 * `setStatus` with `expected` is one conditional `update ... where status = expected`: the row
 * lock makes a concurrent decision wait and re-check the status after the first commits, so one
 * of them changes it.
 *
 * Status and role changes read the row and write it in one transaction under that lock, counting
 * the approved owners when one would stop being one: the last owner is never demoted or
 * deactivated.
 *
 * `create` with `approveIfFirst` runs the check and the insert in one transaction under a
 * transaction-scoped advisory lock per schema, which status changes take too, so concurrent first
 * registrations approve exactly one.
 *
 * @module
 */

import type postgres from "postgres";
import {
  autoApproved,
  canonicalAdmin,
  checkRole,
  isActiveOwner,
  isoInstant,
  normalizeEmail,
  roleAfter,
} from "@/lib/storage/records.ts";
import {
  type Admin,
  type AdminRepository,
  type AdminRole,
  type AdminStatus,
  type AuditEntry,
  EmailTakenError,
  LastOwnerError,
} from "@/lib/storage/types.ts";
import { canonicalMessages } from "@/lib/storage/outbox_records.ts";
import { MAX_MESSAGES_PER_CAUSE } from "@/lib/storage/outbox_types.ts";
import { iso, isUniqueViolation, type PgContext } from "./context.ts";
import { insertMessages } from "./outbox.ts";
import { insertAudit } from "./audit.ts";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";

/** The row shape of `admins`. */
interface AdminRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  status: AdminStatus;
  role: AdminRole | null;
  created_at: Date;
  decided_by: string | null;
  decided_at: Date | null;
}

const toAdmin = (row: AdminRow): Admin => ({
  id: row.id,
  email: row.email,
  name: row.name,
  passwordHash: row.password_hash,
  status: row.status,
  role: row.role,
  createdAt: row.created_at.toISOString(),
  decidedBy: row.decided_by,
  decidedAt: iso(row.decided_at),
});

/**
 * Serializes the decisions that depend on "is any admin approved?" (a first registration with
 * `approveIfFirst`, and status changes) within this schema. Transaction-scoped: released on
 * commit or rollback.
 */
const lockApprovals = (tx: postgres.TransactionSql) =>
  tx`select pg_advisory_xact_lock(hashtextextended('donations.admins.approvals:' || current_schema(), 0))`;

/**
 * The {@link AdminRepository} on `admins`.
 *
 * @example
 * ```ts
 * const admin = await pgAdmins(ctx).getByEmail("ada@example.org");
 * ```
 */
export function pgAdmins({ sql, transaction }: PgContext): AdminRepository {
  /**
   * Under the approvals lock: reads the admin, writes `change(admin)` (null: nothing, answers null)
   * and `audit` in one transaction; throws LastOwnerError rather than leave no approved owner (the
   * lock serializes every change that could: two owners demoting each other take turns).
   */
  const write = (id: string, audit: AuditEntry[], change: (before: Admin) => Admin | null) =>
    transaction(async (tx) => {
      await lockApprovals(tx);
      const [current] = await tx<AdminRow[]>`select * from admins where id = ${id}`;
      if (!current) return null;
      const before = toAdmin(current);
      const after = change(before);
      if (after === null) return null;
      if (isActiveOwner(before) && !isActiveOwner(after)) {
        const [{ n }] = await tx<{ n: number }[]>`
          select count(*)::int as n from admins where status = 'approved' and role = 'owner'
        `;
        if (n <= 1) throw new LastOwnerError();
      }
      const [row] = await tx<AdminRow[]>`
        update admins set status = ${after.status}, role = ${after.role}, decided_by = ${after.decidedBy},
          decided_at = ${after.decidedAt}
        where id = ${id} returning *
      `;
      // In the change's transaction: the entry commits with it, or neither does.
      if (audit.length > 0) await insertAudit(tx, audit);
      return toAdmin(row);
    });

  return {
    async create(input, options = {}) {
      const given = canonicalAdmin(input);
      const messages = canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE);
      try {
        return await transaction(async (tx) => {
          let admin = given;
          if (options.approveIfFirst) {
            await lockApprovals(tx);
            // A new statement after the lock: sees every approval committed before it was granted.
            const [{ any }] = await tx<{ any: boolean }[]>`
              select exists (select 1 from admins where status = 'approved') as any
            `;
            if (!any) admin = autoApproved(given);
          }
          const [row] = await tx<AdminRow[]>`
            insert into admins (id, email, name, password_hash, status, role, created_at, decided_by, decided_at)
            values (
              ${admin.id}, ${admin.email}, ${admin.name}, ${admin.passwordHash}, ${admin.status},
              ${admin.role}, ${admin.createdAt}, ${admin.decidedBy}, ${admin.decidedAt}
            )
            returning *
          `;
          // Awaiting approval: its messages (to the approved admins) commit with it.
          if (row.status === "pending" && messages.length > 0) {
            await tx`${insertMessages(tx, messages, admin.createdAt)}`;
          }
          return toAdmin(row);
        });
      } catch (error) {
        if (isUniqueViolation(error, "admins_email_key")) throw new EmailTakenError(given.email);
        throw error;
      }
    },

    async get(id) {
      const [row] = await sql<AdminRow[]>`select * from admins where id = ${id}`;
      return row ? toAdmin(row) : null;
    },

    async getByEmail(email) {
      const [row] = await sql<AdminRow[]>`select * from admins where email = ${normalizeEmail(email)}`;
      return row ? toAdmin(row) : null;
    },

    async listByStatus(status) {
      // `collate "C"` on the tie-breaker, as KV orders its keys.
      const rows = await sql<AdminRow[]>`
        select * from admins where status = ${status} order by created_at, id collate "C"
      `;
      return rows.map(toAdmin);
    },

    async setStatus(id, status, decidedBy, decidedAt, expected, options = {}) {
      const at = isoInstant(decidedAt, "decidedAt");
      const role = options.role === undefined ? undefined : checkRole(options.role);
      const audit = auditEntries(options.audit, at, MAX_AUDIT_PER_CAUSE);
      return await write(id, audit, (before) => {
        if (expected !== undefined && before.status !== expected) return null;
        return canonicalAdmin({
          ...before,
          status,
          role: roleAfter(before, status, role),
          decidedBy,
          decidedAt: at,
        });
      });
    },

    async setRole(id, input, at, options = {}) {
      const role = checkRole(input);
      const audit = auditEntries(options.audit, isoInstant(at, "at"), MAX_AUDIT_PER_CAUSE);
      return await write(id, audit, (before) => before.status === "approved" ? { ...before, role } : null);
    },
  };
}
