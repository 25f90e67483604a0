/**
 * Visits on PostgreSQL (issue 28): table `visits` (migration 41), one row per member let in at the
 * front desk, keyed by the desk's id.
 * - `record` is one statement: `insert … on conflict (id) do nothing`, its audit entries inserted in
 *   the same `with` query only when the row was, then the row as stored (the earlier one for a
 *   repeated id);
 * - the lists read `visits_at` or `visits_number` newest first a page at a time, the cursor a row
 *   comparison `(at, id) < (…)`.
 *
 * @module
 */
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import { batchLimit } from "@/lib/storage/queries.ts";
import { isoInstant } from "@/lib/storage/records.ts";
import { canonicalVisit } from "@/lib/storage/visit_records.ts";
import type { Visit, VisitRepository } from "@/lib/storage/visit_types.ts";
import { insertAudit } from "./audit.ts";
import type { PgContext } from "./context.ts";

/** The row shape of `visits`. */
interface VisitRow {
  id: string;
  number: string | null;
  cardholder: string;
  guests: number;
  level_id: number | null;
  desk_id: string;
  desk_email: string;
  at: Date;
  kind: Visit["kind"];
  reason: string | null;
}

const toVisit = (row: VisitRow): Visit => ({
  id: row.id,
  number: row.number,
  cardholder: row.cardholder,
  guests: row.guests,
  levelId: row.level_id,
  deskId: row.desk_id,
  deskEmail: row.desk_email,
  at: row.at.toISOString(),
  kind: row.kind,
  reason: row.reason,
});

/**
 * The {@link VisitRepository} on `visits`.
 *
 * @example
 * ```ts
 * const { created } = await pgVisits(ctx).record(visit, { audit: [entry] });
 * ```
 */
export function pgVisits({ sql }: PgContext): VisitRepository {
  return {
    async record(input, options = {}) {
      const v = canonicalVisit(input);
      const audit = auditEntries(options.audit, v.at, MAX_AUDIT_PER_CAUSE);
      const rows = await sql<(VisitRow & { created: boolean })[]>`
        with inserted as (
          insert into visits (id, number, cardholder, guests, level_id, desk_id, desk_email, at, kind, reason)
          values (${v.id}, ${v.number}, ${v.cardholder}, ${v.guests}, ${v.levelId}, ${v.deskId},
            ${v.deskEmail}, ${v.at}, ${v.kind}, ${v.reason})
          on conflict (id) do nothing
          returning *
        ), logged as (
          ${
        audit.length > 0 ? insertAudit(sql, audit, sql`where exists (select 1 from inserted)`) : sql`select 1`
      }
        )
        select *, true as created from inserted
        union all
        select *, false as created from visits
        where id = ${v.id} and not exists (select 1 from inserted)
      `;
      // The insert's snapshot does not see a row a concurrent call committed after it began: ask again.
      const row = rows[0] ?? (await sql<(VisitRow & { created: boolean })[]>`
        select *, false as created from visits where id = ${v.id}
      `)[0];
      if (!row) throw new Error("visit neither stored nor found"); // visits are never deleted
      return { visit: toVisit(row), created: row.created };
    },

    async get(id) {
      const [row] = await sql<VisitRow[]>`select * from visits where id = ${id}`;
      return row ? toVisit(row) : null;
    },

    async listByTime(range, limit, before) {
      const n = batchLimit(limit);
      const from = isoInstant(range.from, "from");
      const to = isoInstant(range.to, "to");
      const rows = await sql<VisitRow[]>`
        select * from visits where at >= ${from} and at < ${to}
          ${before ? sql`and (at, id) < (${isoInstant(before.at)}::timestamptz, ${before.id})` : sql``}
        order by at desc, id desc limit ${n}
      `;
      return rows.map(toVisit);
    },

    async listByNumber(number, limit, before) {
      const n = batchLimit(limit);
      const rows = await sql<VisitRow[]>`
        select * from visits where number = ${number}
          ${before ? sql`and (at, id) < (${isoInstant(before.at)}::timestamptz, ${before.id})` : sql``}
        order by at desc, id desc limit ${n}
      `;
      return rows.map(toVisit);
    },
  };
}
