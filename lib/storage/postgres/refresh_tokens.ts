/**
 * Admin refresh tokens on PostgreSQL.
 *
 * Tables:
 * - `refresh_tokens` (migration 4): one row per token, keyed by the token's hash (the token itself
 *   is never stored), with its admin, its family (the chain of rotations), the family's first
 *   sign-in (`family_started_at`, migration 15: a family's absolute lifetime counts from it) and
 *   `used_at`. `markUsed`
 *   is `update ... where used_at is null returning`: the row lock makes concurrent uses wait, and
 *   each re-checks `used_at` after the winner commits, so exactly one succeeds. Indexed by
 *   `family_id` and `admin_id` (migration 4) and by `expires_at` (migration 10, for retention);
 * - `refresh_token_families_revoked` (migration 4): one row per revoked family, written once
 *   (`on conflict do nothing`); indexed by `revoked_at` (migration 10, for retention).
 *
 * Retention (`deleteExpired`, `deleteRevokedBefore`): one statement per batch, deleting the oldest
 * rows by that time index that no other session holds (`for update skip locked`): two sweepers
 * split the rows instead of waiting, and no batch is a long transaction.
 *
 * @module
 */

import { batchLimit } from "@/lib/storage/queries.ts";
import { canonicalRefreshToken, isoInstant } from "@/lib/storage/records.ts";
import type { RefreshToken, RefreshTokenRepository } from "@/lib/storage/types.ts";
import { iso, type PgContext } from "./context.ts";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import { insertAudit } from "./audit.ts";

/** The row shape of `refresh_tokens`. */
interface RefreshTokenRow {
  hash: string;
  admin_id: string;
  family_id: string;
  family_started_at: Date;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

const toRefreshToken = (row: RefreshTokenRow): RefreshToken => ({
  hash: row.hash,
  adminId: row.admin_id,
  familyId: row.family_id,
  familyStartedAt: row.family_started_at.toISOString(),
  createdAt: row.created_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
  usedAt: iso(row.used_at),
});

/**
 * The {@link RefreshTokenRepository} on `refresh_tokens` and `refresh_token_families_revoked`.
 *
 * @example
 * ```ts
 * const first = await pgRefreshTokens(ctx).markUsed(hash, new Date().toISOString()); // true once
 * ```
 */
export function pgRefreshTokens({ sql }: PgContext): RefreshTokenRepository {
  return {
    async create(input, options = {}) {
      const t = canonicalRefreshToken(input);
      const audit = auditEntries(options.audit, t.createdAt, MAX_AUDIT_PER_CAUSE);
      // One statement: a sign-in's entry is written with its token, or neither is.
      await sql`
        with created as (
          insert into refresh_tokens (hash, admin_id, family_id, family_started_at, created_at, expires_at, used_at)
          values (
            ${t.hash}, ${t.adminId}, ${t.familyId}, ${t.familyStartedAt}, ${t.createdAt}, ${t.expiresAt}, ${t.usedAt}
          )
          returning hash
        ), logged as (
          ${
        audit.length > 0 ? insertAudit(sql, audit, sql`where exists (select 1 from created)`) : sql`select 1`
      }
        )
        select 1
      `;
    },

    async get(hash) {
      const [row] = await sql<RefreshTokenRow[]>`select * from refresh_tokens where hash = ${hash}`;
      return row ? toRefreshToken(row) : null;
    },

    async markUsed(hash, usedAt) {
      // The row lock makes concurrent updates wait; each re-checks `used_at is null` after the
      // winner commits, so exactly one of them updates the row.
      const rows = await sql`
        update refresh_tokens set used_at = ${isoInstant(usedAt, "usedAt")}
        where hash = ${hash} and used_at is null
        returning hash
      `;
      return rows.length === 1;
    },

    async revokeFamily(familyId, revokedAt) {
      await sql`
        insert into refresh_token_families_revoked (family_id, revoked_at)
        values (${familyId}, ${isoInstant(revokedAt, "revokedAt")})
        on conflict (family_id) do nothing
      `;
    },

    async isFamilyRevoked(familyId) {
      const rows = await sql`select 1 from refresh_token_families_revoked where family_id = ${familyId}`;
      return rows.length === 1;
    },

    async deleteExpired(before, limit) {
      // One short statement per batch; `skip locked` lets two sweepers share the work without
      // waiting on (or counting) each other's rows.
      const result = await sql`
        delete from refresh_tokens where hash in (
          select hash from refresh_tokens where expires_at < ${isoInstant(before, "before")}
          order by expires_at limit ${batchLimit(limit)} for update skip locked
        )
      `;
      return result.count;
    },

    async deleteRevokedBefore(before, limit) {
      const result = await sql`
        delete from refresh_token_families_revoked where family_id in (
          select family_id from refresh_token_families_revoked where revoked_at < ${
        isoInstant(before, "before")
      }
          order by revoked_at limit ${batchLimit(limit)} for update skip locked
        )
      `;
      return result.count;
    },
  };
}
