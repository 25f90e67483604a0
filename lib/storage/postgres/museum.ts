/**
 * The museum's settings on PostgreSQL.
 *
 * Table `museum_settings` (migration 34): one row (`id` 1) with the settings as `jsonb` and their
 * `version`. `save` is one statement: the first save an `insert ... on conflict do nothing`, a later
 * one an `update ... where version = <the owner's>`, with the audit entry inserted in the same `with`
 * statement only when the row was written, so of two owners saving at once one writes (with its
 * entry) and the other is told. `jsonb` keeps no key order: a read is copied back into the canonical
 * record (`canonicalMuseumSettings`), so both backends answer the same object.
 *
 * @module
 */

import type postgres from "postgres";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import { canonicalMuseumSettings } from "@/lib/storage/museum_records.ts";
import type { MuseumSettings, MuseumSettingsRepository } from "@/lib/storage/museum_types.ts";
import { insertAudit } from "./audit.ts";
import type { PgContext } from "./context.ts";

/** The stored `jsonb` back in its canonical shape. */
const fromRow = (s: MuseumSettings): MuseumSettings =>
  canonicalMuseumSettings(s, s.version, s.updatedAt!, s.updatedBy!);

/**
 * The {@link MuseumSettingsRepository} on `museum_settings`.
 *
 * @example
 * ```ts
 * const settings = await pgMuseum(ctx).get(); // null on a fresh install
 * ```
 */
export function pgMuseum({ sql }: PgContext): MuseumSettingsRepository {
  return {
    async get() {
      const [row] = await sql<
        { settings: MuseumSettings }[]
      >`select settings from museum_settings where id = 1`;
      return row ? fromRow(row.settings) : null;
    },

    async save(input, expected, at, by, options = {}) {
      const settings = canonicalMuseumSettings(input, expected + 1, at, by);
      const audit = auditEntries(options.audit, settings.updatedAt!, MAX_AUDIT_PER_CAUSE);
      const json = sql.json(settings as unknown as postgres.JSONValue);
      const write = expected === 0
        ? sql`insert into museum_settings (id, version, settings, updated_at)
            values (1, ${settings.version}, ${json}, ${settings.updatedAt})
            on conflict (id) do nothing returning settings`
        : sql`update museum_settings set version = ${settings.version}, settings = ${json},
            updated_at = ${settings.updatedAt} where id = 1 and version = ${expected} returning settings`;
      const [row] = await sql<{ settings: MuseumSettings }[]>`
        with changed as (${write}), logged as (
          ${
        audit.length > 0 ? insertAudit(sql, audit, sql`where exists (select 1 from changed)`) : sql`select 1`
      }
        )
        select * from changed
      `;
      return row ? fromRow(row.settings) : null;
    },
  };
}
