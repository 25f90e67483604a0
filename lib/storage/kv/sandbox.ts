/**
 * The sandbox provider's books on Deno KV (the simulated processor keeps its records in our store).
 *
 * | key                                                           | value             | written by         |
 * |---------------------------------------------------------------|-------------------|--------------------|
 * | `["sandbox", ref]`                                            | SandboxRecord     | create, transition |
 * | `["sandbox_by_reference", reference, createdAt, ref]`         | ref               | create             |
 * | `["sandbox_by_terminal", terminalId, status, createdAt, ref]` | the record (copy) | create, transition |
 * | `["sandbox_by_updated", updatedAt, ref]`                      | ref               | create, transition |
 *
 * `transition` commits only against the record as read in status `from`: one winner. It moves the
 * terminal and last-change index keys in the same commit.
 *
 * Retention: `sandbox_by_updated` is the time index a sweep reads (`listUpdatedBefore`), one bounded
 * range; `deleteUnchanged` then deletes a few records per commit, each checked as read, so two
 * instances sweeping at once delete (and count) each record once. Stores written before the index
 * existed get it from the `time-indexes` data migration (`migrations.ts`).
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, SWEEP_CHUNK, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { batchLimit, MAX_BATCH } from "@/lib/storage/queries.ts";
import { canonicalSandboxRecord, isoInstant, mergeSandboxData } from "@/lib/storage/records.ts";
import type { SandboxRecord, SandboxRepository } from "@/lib/storage/types.ts";

/** The first key part of every sandbox record, by ref. */
export const SANDBOX = "sandbox";
/** Records by merchant reference, newest last. */
const SANDBOX_BY_REFERENCE = "sandbox_by_reference";
/** Terminal sales by terminal and status: copies, so a listing is one range read. */
const SANDBOX_BY_TERMINAL = "sandbox_by_terminal";
/** The time index of records by last change, for retention. */
const SANDBOX_BY_UPDATED = "sandbox_by_updated";

/** The `["sandbox_by_updated", updatedAt, ref]` key of a record. */
export function sandboxUpdatedKey(r: SandboxRecord): Deno.KvKey {
  return [SANDBOX_BY_UPDATED, r.updatedAt, r.ref];
}

const sandboxByReferenceKey = (r: SandboxRecord): Deno.KvKey => [
  SANDBOX_BY_REFERENCE,
  r.reference,
  r.createdAt,
  r.ref,
];
const sandboxByTerminalKey = (r: SandboxRecord): Deno.KvKey | null =>
  r.terminalId === null ? null : [SANDBOX_BY_TERMINAL, r.terminalId, r.status, r.createdAt, r.ref];

const getSandbox = async ({ kv }: KvContext, ref: string) =>
  (await retryWhileLocked(() => kv.get<SandboxRecord>([SANDBOX, ref]))).value;

/** `sandbox.transition`: from `from` to `to`, only against the record as read in `from`. */
async function transition(
  { kv }: KvContext,
  ref: string,
  from: string,
  to: string,
  data: Record<string, unknown>,
  at: string,
): Promise<boolean> {
  const updatedAt = isoInstant(at, "at");
  const key = [SANDBOX, ref];
  return await untilCommitted(async () => {
    const entry = await retryWhileLocked(() => kv.get<SandboxRecord>(key));
    if (entry.value === null || entry.value.status !== from) return false;
    const before = entry.value;
    const after: SandboxRecord = {
      ...before,
      status: to,
      updatedAt,
      data: mergeSandboxData(before.data, data),
    };
    const ok = await commit(() => {
      const op = kv.atomic().check(entry).set(key, after);
      if (after.updatedAt !== before.updatedAt) {
        op.delete(sandboxUpdatedKey(before)).set(sandboxUpdatedKey(after), ref);
      }
      const oldKey = sandboxByTerminalKey(before);
      if (oldKey) op.delete(oldKey).set(sandboxByTerminalKey(after)!, after);
      return op;
    });
    return ok ? true : RETRY;
  });
}

/** `sandbox.listUpdatedBefore`: one bounded range of the last-change index, after the cursor. */
async function listUpdatedBefore(
  ctx: KvContext,
  before: string,
  limit: number,
  after?: Pick<SandboxRecord, "updatedAt" | "ref"> | null,
): Promise<SandboxRecord[]> {
  const { kv } = ctx;
  const end = isoInstant(before, "before");
  const n = batchLimit(limit);
  const cursor = after ? [isoInstant(after.updatedAt, "after.updatedAt"), after.ref] as const : null;
  const refs = await retryWhileLocked(async () => {
    const out: string[] = [];
    const start: Deno.KvKey = cursor ? [SANDBOX_BY_UPDATED, cursor[0], cursor[1]] : [SANDBOX_BY_UPDATED];
    for await (
      const entry of kv.list<string>({ start, end: [SANDBOX_BY_UPDATED, end] }, {
        limit: n + 1,
        batchSize: Math.min(n + 1, 500),
      })
    ) {
      if (cursor && entry.key[1] === cursor[0] && entry.key[2] === cursor[1]) continue;
      out.push(entry.value);
      if (out.length === n) break;
    }
    return out;
  });
  return (await ctx.getAll<SandboxRecord>(refs.map((ref) => [SANDBOX, ref])))
    .map((entry) => entry.value)
    .filter((r): r is SandboxRecord => r !== null && r.updatedAt < end);
}

/** `sandbox.deleteUnchanged`: {@link SWEEP_CHUNK} records per commit, each checked as read. */
async function deleteUnchanged(
  ctx: KvContext,
  records: Pick<SandboxRecord, "ref" | "updatedAt">[],
): Promise<number> {
  const { kv } = ctx;
  if (records.length > MAX_BATCH) throw new RangeError(`at most ${MAX_BATCH} records per call`);
  const wanted = new Map(records.map((r) => [r.ref, isoInstant(r.updatedAt, "updatedAt")]));
  const refs = [...wanted.keys()];
  let deleted = 0;
  // A few records per commit, each checked as read: one transitioned (or deleted by another
  // sweeper) in between makes the commit fail, and the re-read leaves it out.
  for (let i = 0; i < refs.length; i += SWEEP_CHUNK) {
    const group = refs.slice(i, i + SWEEP_CHUNK);
    deleted += await untilCommitted(async () => {
      const entries = (await ctx.getAll<SandboxRecord>(group.map((ref) => [SANDBOX, ref])))
        .filter((e): e is Deno.KvEntry<SandboxRecord> =>
          e.value !== null && e.value.updatedAt === wanted.get(e.value.ref)
        );
      if (entries.length === 0) return 0;
      const ok = await commit(() => {
        const op = kv.atomic();
        for (const { key, value: r, versionstamp } of entries) {
          op.check({ key, versionstamp }).delete(key).delete(sandboxByReferenceKey(r))
            .delete(sandboxUpdatedKey(r));
          const terminalKey = sandboxByTerminalKey(r);
          if (terminalKey) op.delete(terminalKey);
        }
        return op;
      });
      return ok ? entries.length : RETRY;
    });
  }
  return deleted;
}

/** The {@link SandboxRepository} of the store on `ctx`. */
export function kvSandbox(ctx: KvContext): SandboxRepository {
  const { kv } = ctx;
  return {
    async create(input) {
      const record = canonicalSandboxRecord(input);
      const key = [SANDBOX, record.ref];
      const terminalKey = sandboxByTerminalKey(record);
      const ok = await commit(() => {
        const op = kv.atomic().check({ key, versionstamp: null }).set(key, record)
          .set(sandboxByReferenceKey(record), record.ref)
          .set(sandboxUpdatedKey(record), record.ref);
        if (terminalKey) op.set(terminalKey, record);
        return op;
      });
      if (!ok) throw new Error(`a sandbox record with the ref ${record.ref} exists`);
    },

    get: (ref) => getSandbox(ctx, ref),

    transition: (ref, from, to, data, at) => transition(ctx, ref, from, to, data, at),

    async findByReference(reference) {
      const ref = await retryWhileLocked(async () => {
        for await (
          const entry of kv.list<string>({ prefix: [SANDBOX_BY_REFERENCE, reference] }, {
            reverse: true,
            limit: 1,
          })
        ) {
          return entry.value;
        }
        return null;
      });
      return ref === null ? null : await getSandbox(ctx, ref);
    },

    async listByTerminal(terminalId, status) {
      return await retryWhileLocked(async () => {
        const out: SandboxRecord[] = [];
        for await (
          const entry of kv.list<SandboxRecord>({ prefix: [SANDBOX_BY_TERMINAL, terminalId, status] })
        ) {
          out.push(entry.value);
        }
        return out;
      });
    },

    listUpdatedBefore: (before, limit, after) => listUpdatedBefore(ctx, before, limit, after),

    deleteUnchanged: (records) => deleteUnchanged(ctx, records),
  };
}
