/**
 * Feature flags on PostgreSQL.
 *
 * Table `feature_flags` (migration 1): one row per flag, keyed by its name, with `enabled` and the
 * `updated_at` of the last change. `set` is one `insert ... on conflict (flag) do update`, so a
 * flip is a single atomic statement; `seed` inserts the defaults with `on conflict do nothing`, so
 * a restart never overwrites a flag an admin changed. `list` orders by `collate "C"`, the byte
 * order Deno KV keeps its keys in, so both backends list the flags alike.
 *
 * @module
 */

import type { FeatureFlag, FlagRepository } from "../types.ts";
import type { PgContext } from "./context.ts";

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
