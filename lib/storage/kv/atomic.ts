/**
 * How the Deno KV store commits: its limits on one atomic operation, the retry while another
 * handle holds the SQLite write lock ({@link retryWhileLocked}), the read-check-commit loop that
 * settles races ({@link untilCommitted}, {@link commit}), and the budget a large commit is planned
 * with ({@link ImportBudget}). Nothing here holds per-store state: what is bound to one open
 * handle is in `context.ts`.
 *
 * Every promise of the contract that something happens "atomically" or "once" is a read followed by
 * `kv.atomic()` that checks the versionstamps it read (a key read as absent is checked as `null`)
 * and commits only when none changed; a lost race answers {@link RETRY}, and `untilCommitted`
 * re-reads and decides again. Each concept module says which keys its operations check.
 *
 * @example A read-check-commit that sets a key once
 * ```ts
 * import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
 * const kv = await Deno.openKv(":memory:");
 * const claimed = await untilCommitted(async () => {
 *   const entry = await retryWhileLocked(() => kv.get(["example", "a"]));
 *   if (entry.value !== null) return false;
 *   return (await commit(() => kv.atomic().check(entry).set(["example", "a"], 1))) ? true : RETRY;
 * });
 * kv.close();
 * ```
 *
 * @module
 */

/**
 * Deno KV's limits on one atomic operation and one read (`ext/kv` in Deno 2, checked here with
 * Deno 2.9): 100 checks, 1,000 mutations, 800 KiB of keys and values in total (every check and
 * mutation key, plus each set's key and value again), 80 KiB of set keys, 10 keys per getMany.
 */
export const KV_LIMITS = {
  checks: 100,
  mutations: 1_000,
  totalBytes: 800 * 1024,
  totalKeyBytes: 80 * 1024,
  keysPerRead: 10,
};

/**
 * Records one retention commit deletes at most: one check and a few deletions each, far inside
 * {@link KV_LIMITS}, so a sweep is many small commits rather than one huge one.
 */
export const SWEEP_CHUNK = 50;

/** How long keys that expire (throttle, nonces, dedupe keys) outlive the moment they stop mattering. */
export const EXPIRY_GRACE_MS = 60_000;

/** How long an operation keeps retrying while another handle holds the SQLite write lock. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * Runs a KV operation, retrying while the database file is locked.
 *
 * Deno KV's SQLite backend sets no busy timeout: when another handle on the same file (this
 * process or another one) is writing, an operation fails at once with "database is locked" (about
 * half of 1,600 racing commits from two handles, measured here). Such a failure writes nothing,
 * and every operation of the store is safe to repeat (`flags.seed` re-checks that the key is still
 * absent), so trying again, with jittered exponential backoff, is correct.
 */
export async function retryWhileLocked<T>(operation: () => Promise<T>): Promise<T> {
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

/** What an attempt of {@link untilCommitted} answers when its commit lost a race. */
export const RETRY = Symbol("retry");

/** How long a read-check-commit loop keeps trying while other writers win the race. */
const CONFLICT_TIMEOUT_MS = 10_000;

/**
 * Runs `attempt` (read, decide, commit with versionstamp checks) until it answers something other
 * than {@link RETRY}: an attempt whose commit failed its checks re-reads and decides again. Short
 * jittered pauses between attempts keep many racing writers from retrying in lockstep.
 */
export async function untilCommitted<T>(attempt: () => Promise<T | typeof RETRY>): Promise<T> {
  const deadline = Date.now() + CONFLICT_TIMEOUT_MS;
  for (let round = 0;; round++) {
    const result = await attempt();
    if (result !== RETRY) return result;
    if (Date.now() >= deadline) {
      throw new Error(`Deno KV: gave up after ${round + 1} conflicting commits in ${CONFLICT_TIMEOUT_MS} ms`);
    }
    const cap = Math.min(20, 2 ** round);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * cap));
  }
}

/**
 * Commits the operation `build` answers (rebuilt for every retry while the file is locked) and
 * answers whether its checks passed.
 */
export async function commit(build: () => Deno.AtomicOperation): Promise<boolean> {
  const result = await retryWhileLocked(() => build().commit());
  return result.ok;
}

/**
 * The size of a key as Deno KV encodes it (the FoundationDB tuple layout): a type byte, then a
 * string's UTF-8 bytes (a NUL escaped as two bytes) and a NUL, or a number's 8 bytes.
 */
export function keyBytes(key: Deno.KvKey): number {
  let bytes = 0;
  for (const part of key) {
    if (typeof part === "string") {
      const utf8 = encoder.encode(part);
      bytes += 2 + utf8.length + utf8.filter((b) => b === 0).length;
    } else if (typeof part === "number") {
      bytes += 9;
    } else {
      throw new TypeError(`keyBytes: unsupported key part ${typeof part}`);
    }
  }
  return bytes;
}

const encoder = new TextEncoder();

// `node:v8` (and with it Node's compatibility layer, 30 ms and more of a server start) is loaded
// only when an import or a migration measures values: see `loadSerialize`.
let serialize: ((value: unknown) => Uint8Array) | undefined;

/** Loads `node:v8`'s `serialize`, which {@link ImportBudget.take} needs; call it before a budget. */
export async function loadSerialize(): Promise<void> {
  serialize ??= (await import("node:v8")).serialize;
}

/**
 * Counts what an atomic operation under construction uses of {@link KV_LIMITS}: the checks given
 * at the start, the counter sets reserved for the end, and the sets {@link take}n in between.
 * Values are measured as KV stores them (V8 serialization), so {@link loadSerialize} must have
 * run first.
 */
export class ImportBudget {
  #mutations: number;
  #bytes: number;
  #keyBytes: number;

  constructor(counterKeys: Deno.KvKey[]) {
    const counterBytes = counterKeys.reduce((sum, key) => sum + keyBytes(key), 0);
    // The counters: checked once each, and set at most once each (a number: at most 11 bytes).
    this.#mutations = counterKeys.length;
    this.#bytes = counterBytes + 2 * counterBytes + 16 * counterKeys.length;
    this.#keyBytes = counterBytes;
    if (counterKeys.length > KV_LIMITS.checks) throw new Error("too many checks");
  }

  /** Reserves room for `sets` and answers true, or answers false and reserves nothing. */
  take(sets: [Deno.KvKey, unknown][]): boolean {
    let bytes = 0;
    let keys = 0;
    const sizes = new Map<unknown, number>();
    for (const [key, value] of sets) {
      const k = keyBytes(key);
      let v = sizes.get(value);
      if (v === undefined) sizes.set(value, v = serialize!(value).length);
      bytes += 2 * k + v;
      keys += k;
    }
    if (
      this.#mutations + sets.length > KV_LIMITS.mutations ||
      this.#bytes + bytes > KV_LIMITS.totalBytes ||
      this.#keyBytes + keys > KV_LIMITS.totalKeyBytes
    ) return false;
    this.#mutations += sets.length;
    this.#bytes += bytes;
    this.#keyBytes += keys;
    return true;
  }
}
