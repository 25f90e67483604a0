/**
 * What every concept module of the Deno KV store shares, bound to one open handle: the
 * {@link KvContext} that `mod.ts` builds once per store and passes to each repository factory.
 * The stateless commit and retry helpers it uses are in `atomic.ts`.
 *
 * @example A repository factory reads through the context
 * ```ts
 * import { createKvContext } from "./context.ts";
 * const ctx = createKvContext(await Deno.openKv(":memory:"));
 * const [a, b] = await ctx.getAll<number>([["example", "a"], ["example", "b"]]);
 * ctx.kv.close();
 * ```
 *
 * @module
 */

import { commit, KV_LIMITS, RETRY, retryWhileLocked, SWEEP_CHUNK, untilCommitted } from "./atomic.ts";

/** The write queues of a handle: writes that move the same counters share one. */
export type WriteQueue = "transactions" | "receipts";

/** One open store: its handle and the helpers that use it. */
export interface KvContext {
  /** The open database. */
  readonly kv: Deno.Kv;
  /**
   * Runs the writes of one queue of this handle one at a time, in arrival order. Every record moves
   * the shared list counters, so concurrent records in one process only lose commits to each
   * other: under load (hundreds of donors at once) unlucky ones lost every race until they gave
   * up, while one at a time each commits at its first try. Other processes on the same file
   * still race, and `untilCommitted` still settles that. Writes that share no key wait in queues
   * of their own: receipt numbers (`receipts`) never wait behind the payments' records
   * (`transactions`, the default).
   */
  oneAtATime<T>(write: () => Promise<T>, queue?: WriteQueue): Promise<T>;
  /** Reads any number of keys, {@link KV_LIMITS.keysPerRead} per getMany, in the order given. */
  getAll<T>(keys: Deno.KvKey[]): Promise<Deno.KvEntryMaybe<T>[]>;
  /** The first `limit` entries of a time index `[prefix, time, id]` with `time < before`. */
  indexRange(prefix: string, before: string, limit: number): Promise<Deno.KvEntry<string>[]>;
  /**
   * Deletes the time-index `entries` and the records they name (`recordKeys`), {@link SWEEP_CHUNK}
   * per commit, each index entry checked as read: a record another sweeper deleted first is
   * re-read and left out, so each deletion is counted once. Answers how many were deleted.
   */
  deleteIndexed(
    entries: Deno.KvEntry<unknown>[],
    recordKeys: (entry: Deno.KvEntry<unknown>) => Deno.KvKey[],
  ): Promise<number>;
}

/** The context of the store on `kv`; one per open handle (the write queue is per handle). */
export function createKvContext(kv: Deno.Kv): KvContext {
  const queues: Record<WriteQueue, Promise<unknown>> = {
    transactions: Promise.resolve(),
    receipts: Promise.resolve(),
  };
  const oneAtATime = <T>(write: () => Promise<T>, queue: WriteQueue = "transactions"): Promise<T> => {
    const run = queues[queue].then(write, write);
    queues[queue] = run.catch(() => {});
    return run;
  };

  const getAll = async <T>(keys: Deno.KvKey[]): Promise<Deno.KvEntryMaybe<T>[]> => {
    const reads: Promise<Deno.KvEntryMaybe<T>[]>[] = [];
    for (let i = 0; i < keys.length; i += KV_LIMITS.keysPerRead) {
      const group = keys.slice(i, i + KV_LIMITS.keysPerRead);
      reads.push(retryWhileLocked(() => kv.getMany<T[]>(group)));
    }
    return (await Promise.all(reads)).flat();
  };

  const indexRange = (prefix: string, before: string, limit: number) =>
    retryWhileLocked(async () => {
      const out: Deno.KvEntry<string>[] = [];
      const selector = { start: [prefix], end: [prefix, before] };
      for await (const entry of kv.list<string>(selector, { limit, batchSize: Math.min(limit, 500) })) {
        out.push(entry);
      }
      return out;
    });

  const deleteIndexed = async (
    entries: Deno.KvEntry<unknown>[],
    recordKeys: (entry: Deno.KvEntry<unknown>) => Deno.KvKey[],
  ): Promise<number> => {
    let deleted = 0;
    for (let i = 0; i < entries.length; i += SWEEP_CHUNK) {
      let chunk = entries.slice(i, i + SWEEP_CHUNK);
      deleted += await untilCommitted(async () => {
        if (chunk.length === 0) return 0;
        const ok = await commit(() => {
          const op = kv.atomic();
          for (const entry of chunk) {
            op.check(entry).delete(entry.key);
            for (const key of recordKeys(entry)) op.delete(key);
          }
          return op;
        });
        if (ok) return chunk.length;
        const again = await getAll<unknown>(chunk.map((entry) => entry.key));
        chunk = again.filter((entry): entry is Deno.KvEntry<unknown> => entry.value !== null);
        return RETRY;
      });
    }
    return deleted;
  };

  return { kv, oneAtATime, getAll, indexRange, deleteIndexed };
}
