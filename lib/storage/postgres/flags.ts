/**
 * Feature flags on PostgreSQL.
 *
 * Table `feature_flags` (migration 1): one row per flag, keyed by its name, with `enabled` and the
 * `updated_at` of the last change. `set` is one `insert ... on conflict (flag) do update`, so a
 * flip is a single atomic statement; `seed` inserts the defaults with `on conflict do nothing`, so
 * a restart never overwrites a flag an admin changed. `change` (an owner's switch in the back office)
 * is one conditional `update` (or `insert`) with its audit entry in the same `with` statement. `list` orders by `collate "C"`, the byte
 * order Deno KV keeps its keys in, so both backends list the flags alike.
 *
 * @module
 */

import type { FeatureFlag, FlagRepository } from "@/lib/storage/types.ts";
import type { PgContext } from "./context.ts";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import { isoInstant } from "@/lib/storage/records.ts";
import { insertAudit } from "./audit.ts";

/** The row shape of `feature_flags`; postgres.js reads `timestamptz` as a `Date`. */
interface FlagRow {
  flag: string;
  enabled: boolean;
  updated_at: Date;
}

const toFlag = (row: FlagRow): FeatureFlag => ({
  flag: row.flag,
  enabled: row.enabled,
  updatedAt: row.updated_at.toISOString(),
});

/**
 * The {@link FlagRepository} on `feature_flags`.
 *
 * @example
 * ```ts
 * const flags = pgFlags(ctx);
 * await flags.set("MONTHLY_PAYMENT", true);
 * ```
 */
export function pgFlags({ sql }: PgContext): FlagRepository {
  return {
    async list() {
      // `collate "C"` sorts by bytes, as KV does; a database's default (often en_US) ignores case
      // and punctuation, so the two backends would disagree.
      const rows = await sql<FlagRow[]>`
        select flag, enabled, updated_at from feature_flags order by flag collate "C"
      `;
      return rows.map(toFlag);
    },

    async get(flag) {
      const [row] = await sql<FlagRow[]>`
        select flag, enabled, updated_at from feature_flags where flag = ${flag}
      `;
      return row ? toFlag(row) : null;
    },

    async set(flag, enabled) {
      const [row] = await sql<FlagRow[]>`
        insert into feature_flags (flag, enabled, updated_at) values (${flag}, ${enabled}, now())
        on conflict (flag) do update set enabled = excluded.enabled, updated_at = excluded.updated_at
        returning flag, enabled, updated_at
      `;
      return toFlag(row);
    },

    async change(flag, enabled, expected, at, options = {}) {
      const when = isoInstant(at, "at");
      const audit = auditEntries(options.audit, when, MAX_AUDIT_PER_CAUSE);
      // One statement, conditional on the value the caller saw: of two owners switching at once,
      // one writes (with its entry) and the other is told it changed meanwhile.
      const write = expected === null
        ? sql`insert into feature_flags (flag, enabled, updated_at) values (${flag}, ${enabled}, ${when})
            on conflict (flag) do nothing returning flag, enabled, updated_at`
        : sql`update feature_flags set enabled = ${enabled}, updated_at = ${when}
            where flag = ${flag} and enabled = ${expected} returning flag, enabled, updated_at`;
      const [row] = await sql<FlagRow[]>`
        with changed as (${write}), logged as (
          ${
        audit.length > 0 ? insertAudit(sql, audit, sql`where exists (select 1 from changed)`) : sql`select 1`
      }
        )
        select * from changed
      `;
      return row ? toFlag(row) : null;
    },

    async seed(defaults) {
      // Sorted, so concurrent seeds take the row locks of `on conflict` in the same order and can
      // wait on each other but never deadlock.
      const rows = Object.entries(defaults)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([flag, enabled]) => ({ flag, enabled }));
      if (rows.length === 0) return;
      await sql`insert into feature_flags ${sql(rows, "flag", "enabled")} on conflict (flag) do nothing`;
    },
  };
}
