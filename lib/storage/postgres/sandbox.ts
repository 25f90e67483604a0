/**
 * The sandbox provider's records on PostgreSQL: hosted pages, card tokens, terminal sales and
 * charges of the local simulated provider, so every instance sees the same simulated payment.
 *
 * Table `sandbox_records` (migration 8): one row per record, keyed by `ref` (`collate "C"`), the
 * provider's state in `status` and the rest in a `data` jsonb object.
 * - `transition` is `update ... where status = from`, merging `data` with jsonb `||` (shallow, as
 *   KV's merge): the row lock makes a racing transition wait, then find the status changed;
 * - `findByReference` reads `sandbox_records_reference` `(reference, created_at, ref)` and
 *   `listByTerminal` the partial `sandbox_records_terminal` `(terminal_id, status, created_at,
 *   ref)` (both migration 8);
 * - retention: `listUpdatedBefore` is a keyset range of `sandbox_records_updated_at`
 *   `(updated_at, ref)` (migration 10), and `deleteUnchanged` deletes only rows whose
 *   `updated_at` is still the one read, so a record used since it was read stays.
 *
 * @module
 */

import type postgres from "postgres";
import { batchLimit, MAX_BATCH } from "@/lib/storage/queries.ts";
import { canonicalSandboxRecord, isoInstant, jsonObject } from "@/lib/storage/records.ts";
import type { SandboxRecord, SandboxRepository } from "@/lib/storage/types.ts";
import type { PgContext } from "./context.ts";

/** The row shape of `sandbox_records`. */
interface SandboxRow {
  ref: string;
  kind: SandboxRecord["kind"];
  status: string;
  reference: string;
  terminal_id: string | null;
  amount: string;
  currency: number;
  created_at: Date;
  updated_at: Date;
  data: Record<string, unknown>;
}

const toSandboxRecord = (row: SandboxRow): SandboxRecord => ({
  ref: row.ref,
  kind: row.kind,
  status: row.status,
  reference: row.reference,
  terminalId: row.terminal_id,
  amount: Number(row.amount),
  currency: row.currency as SandboxRecord["currency"],
  createdAt: row.created_at.toISOString(),
  updatedAt: row.updated_at.toISOString(),
  data: row.data,
});

/**
 * The {@link SandboxRepository} on `sandbox_records`.
 *
 * @example
 * ```ts
 * const moved = await pgSandbox(ctx).transition(ref, "open", "paid", {}, new Date().toISOString());
 * ```
 */
export function pgSandbox({ sql }: PgContext): SandboxRepository {
  return {
    async create(input) {
      const r = canonicalSandboxRecord(input);
      await sql`
        insert into sandbox_records (
          ref, kind, status, reference, terminal_id, amount, currency, created_at, updated_at, data
        ) values (
          ${r.ref}, ${r.kind}, ${r.status}, ${r.reference}, ${r.terminalId}, ${r.amount}, ${r.currency},
          ${r.createdAt}, ${r.updatedAt}, ${sql.json(r.data as postgres.JSONValue)}
        )
      `;
    },

    async get(ref) {
      const [row] = await sql<SandboxRow[]>`select * from sandbox_records where ref = ${ref}`;
      return row ? toSandboxRecord(row) : null;
    },

    async transition(ref, from, to, data, at) {
      const updatedAt = isoInstant(at, "at");
      // `||` merges two jsonb objects shallowly, as mergeSandboxData does for KV; the row lock
      // makes a racing transition wait and then find the status changed.
      const patch = jsonObject(data, "data");
      const rows = await sql`
        update sandbox_records
        set status = ${to}, updated_at = ${updatedAt}, data = data || ${sql.json(patch as postgres.JSONValue)}
        where ref = ${ref} and status = ${from}
        returning ref
      `;
      return rows.length === 1;
    },

    async findByReference(reference) {
      const [row] = await sql<SandboxRow[]>`
        select * from sandbox_records where reference = ${reference}
        order by created_at desc, ref desc limit 1
      `;
      return row ? toSandboxRecord(row) : null;
    },

    async listByTerminal(terminalId, status) {
      const rows = await sql<SandboxRow[]>`
        select * from sandbox_records where terminal_id = ${terminalId} and status = ${status}
        order by created_at, ref
      `;
      return rows.map(toSandboxRecord);
    },

    async listUpdatedBefore(before, limit, after) {
      const end = isoInstant(before, "before");
      const n = batchLimit(limit);
      const rows = after
        ? await sql<SandboxRow[]>`
          select * from sandbox_records
          where updated_at < ${end}
            and (updated_at, ref) > (${
          isoInstant(after.updatedAt, "after.updatedAt")
        }::timestamptz, ${after.ref})
          order by updated_at, ref limit ${n}
        `
        : await sql<SandboxRow[]>`
          select * from sandbox_records where updated_at < ${end} order by updated_at, ref limit ${n}
        `;
      return rows.map(toSandboxRecord);
    },

    async deleteUnchanged(records) {
      if (records.length > MAX_BATCH) throw new RangeError(`at most ${MAX_BATCH} records per call`);
      if (records.length === 0) return 0;
      // A record transitioned since it was read has another updated_at and stays; the row lock
      // makes a concurrent transition (or a second sweeper) wait, then re-check.
      const result = await sql`
        delete from sandbox_records s
        using unnest(
          ${records.map((r) => r.ref)}::text[],
          ${records.map((r) => isoInstant(r.updatedAt, "updatedAt"))}::timestamptz[]
        ) as x (ref, updated_at)
        where s.ref = x.ref and s.updated_at = x.updated_at
      `;
      return result.count;
    },
  };
}
