/**
 * The audit log on PostgreSQL: table `audit_log` (migration 26), append-only (a trigger refuses
 * updates and deletes).
 * - `append` is one `insert`; a cause writes its entries in its own statement with
 *   {@link insertAudit} (a fragment of its `with` query or transaction), only when it happened;
 * - `list` reads one of the three indexes `(…, at desc, id desc)` a page at a time; the cursor is a
 *   row comparison `(at, id) < (…)`, so a page costs its own size.
 *
 * @module
 */

import type postgres from "postgres";
import { auditEntries, canonicalAuditFilter } from "@/lib/storage/audit_records.ts";
import type { AuditEntry, AuditRepository } from "@/lib/storage/audit_types.ts";
import { batchLimit } from "@/lib/storage/queries.ts";
import type { PgContext } from "./context.ts";

/** The row shape of `audit_log`. */
interface AuditRow {
  id: string;
  at: Date;
  action: AuditEntry["action"];
  actor_id: string | null;
  actor_email: string;
  address: string;
  target: string | null;
  changes: Record<string, unknown>;
}

const toEntry = (row: AuditRow): AuditEntry => ({
  id: row.id,
  at: row.at.toISOString(),
  action: row.action,
  actorId: row.actor_id,
  actorEmail: row.actor_email,
  address: row.address,
  target: row.target,
  changes: row.changes,
});

/** The most entries one `append` stores. */
const MAX_APPEND = 100;

/**
 * The statement (a fragment of `sql`) inserting `entries` (made by `auditEntries`); `condition`
 * (e.g. `where exists (select 1 from changed)`) decides whether they are written, so a cause's
 * `with` query writes them only when the cause happened.
 */
export function insertAudit(
  sql: postgres.Sql | postgres.TransactionSql,
  entries: readonly AuditEntry[],
  condition: postgres.PendingQuery<postgres.Row[]> = sql``,
): postgres.PendingQuery<postgres.Row[]> {
  const rows = entries.map((e) => ({
    id: e.id,
    at: e.at,
    action: e.action,
    actor_id: e.actorId,
    actor_email: e.actorEmail,
    address: e.address,
    target: e.target,
    changes: e.changes,
  }));
  return sql`
    insert into audit_log (id, at, action, actor_id, actor_email, address, target, changes)
    select e.id, e.at, e.action, e.actor_id, e.actor_email, e.address, e.target, e.changes
    from jsonb_to_recordset(${sql.json(rows as unknown as postgres.JSONValue)}::jsonb)
      as e (id text, at timestamptz, action text, actor_id text, actor_email text, address text,
            target text, changes jsonb)
    ${condition}
  `;
}

/**
 * The {@link AuditRepository} on `audit_log`.
 *
 * @example
 * ```ts
 * const page = await pgAudit(ctx).list({ action: "refund" }, 50);
 * ```
 */
export function pgAudit({ sql }: PgContext): AuditRepository {
  return {
    async append(inputs, at) {
      const entries = auditEntries(inputs, at, MAX_APPEND);
      if (entries.length > 0) await insertAudit(sql, entries);
      return entries;
    },

    async list(input, limit, before) {
      const f = canonicalAuditFilter(input);
      const n = batchLimit(limit);
      const rows = await sql<AuditRow[]>`
        select * from audit_log
        where true
          ${f.actorId === undefined ? sql`` : sql`and actor_id = ${f.actorId}`}
          ${f.action === undefined ? sql`` : sql`and action = ${f.action}`}
          ${f.from === undefined ? sql`` : sql`and at >= ${f.from}`}
          ${f.to === undefined ? sql`` : sql`and at < ${f.to}`}
          ${before ? sql`and (at, id) < (${before.at}::timestamptz, ${before.id})` : sql``}
        order by at desc, id desc
        limit ${n}
      `;
      return rows.map(toEntry);
    },
  };
}
