/**
 * The {@link Store} on Deno KV: the default backend, for one machine (a SQLite file under `data/`)
 * and for Deno Deploy.
 *
 * ## Key design
 *
 * | key prefix        | value                                           | written by                |
 * |-------------------|-------------------------------------------------|---------------------------|
 * | `["flags", name]` | `{ enabled: boolean, updatedAt: string }` (ISO) | `flags.set`, `flags.seed` |
 * | `["health"]`      | never written; `ping` reads it                  | (nothing)                 |
 *
 * Each concept owns one first key part, so `kv.list({ prefix: [concept] })` reads exactly that
 * concept; later concepts (donors, transactions, subscriptions, admins, refresh tokens, throttling)
 * add their prefixes to this table, together with any secondary-index keys they need, since KV has
 * no indexes of its own.
 *
 * KV orders string key parts by their UTF-8 bytes, so `["flags"]` lists come back sorted by name
 * in the same order as PostgreSQL's `collate "C"`.
 *
 * @module
 */

import { dirname } from "node:path";
import type { FeatureFlag, FlagRepository, Store } from "./types.ts";

/** The stored value of a `["flags", name]` key; the name lives in the key only. */
interface FlagValue {
  enabled: boolean;
  updatedAt: string;
}

const FLAGS = "flags";

/** How long an operation keeps retrying while another handle holds the SQLite write lock. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Runs a KV operation, retrying while the database file is locked.
 *
 * Deno KV's SQLite backend sets no busy timeout: when another handle on the same file (this
 * process or another one) is writing, an operation fails at once with "database is locked" (about
 * half of 1,600 racing commits from two handles, measured here). Such a failure writes nothing,
 * and every operation of this module is safe to repeat (`seed` re-checks that the key is still
 * absent), so trying again, with jittered exponential backoff, is correct.
 */
async function retryWhileLocked<T>(operation: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let attempt = 0;; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (!isLocked(error) || Date.now() >= deadline) throw error;
      const cap = Math.min(100, 2 ** attempt);
      await new Promise((resolve) => setTimeout(resolve, cap / 2 + Math.random() * (cap / 2)));
    }
  }
}

const isLocked = (error: unknown) =>
  error instanceof Error && /database is locked|SQLITE_BUSY/i.test(error.message);

/**
 * Opens (creating when missing) a KV store at `path`, a file path or `":memory:"`.
 *
 * @example Open the embedded store of a single machine
 * ```ts
 * import { openKvStore } from "./kv.ts";
 * const store = await openKvStore("data/donations.kv");
 * await store.flags.seed({ MONTHLY_PAYMENT: true });
 * console.log(await store.flags.list());
 * await store.close();
 * ```
 */
export async function openKvStore(path: string): Promise<Store> {
  // `Deno.openKv(path)` fails with a bare "No such file or directory" when the folder is missing.
  if (path !== ":memory:") await Deno.mkdir(dirname(path), { recursive: true });
  const kv = await Deno.openKv(path);
  let closed = false;

  const toFlag = (flag: string, value: FlagValue): FeatureFlag => ({
    flag,
    enabled: value.enabled,
    updatedAt: value.updatedAt,
  });

  const flags: FlagRepository = {
    list() {
      // Retried as a whole: a listing interrupted half way restarts from the first key.
      return retryWhileLocked(async () => {
        const out: FeatureFlag[] = [];
        for await (const entry of kv.list<FlagValue>({ prefix: [FLAGS] })) {
          out.push(toFlag(entry.key[1] as string, entry.value));
        }
        return out;
      });
    },

    async get(flag) {
      const entry = await retryWhileLocked(() => kv.get<FlagValue>([FLAGS, flag]));
      return entry.value === null ? null : toFlag(flag, entry.value);
    },

    async set(flag, enabled) {
      const value: FlagValue = { enabled, updatedAt: new Date().toISOString() };
      await retryWhileLocked(() => kv.set([FLAGS, flag], value));
      return toFlag(flag, value);
    },

    async seed(defaults) {
      const updatedAt = new Date().toISOString();
      // One atomic operation per flag, each committing only while the key is still absent: a racing
      // instance's insert or an operator's change always wins, and a lost race is not an error.
      // (One operation for all flags would fail as a whole as soon as any flag exists.)
      await Promise.all(
        Object.entries(defaults).map(async ([flag, enabled]) => {
          const key = [FLAGS, flag];
          // `ok: false` means the flag exists: the expected outcome on every start after the first.
          await retryWhileLocked(() =>
            kv.atomic()
              .check({ key, versionstamp: null })
              .set(key, { enabled, updatedAt } satisfies FlagValue)
              .commit()
          );
        }),
      );
    },
  };

  return {
    kind: "kv",
    flags,
    async ping() {
      await retryWhileLocked(() => kv.get(["health"]));
    },
    close() {
      if (!closed) {
        closed = true;
        kv.close();
      }
      return Promise.resolve();
    },
  };
}
