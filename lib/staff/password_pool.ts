/**
 * The password pool: argon2id runs in a few Web Workers (`password_worker.ts`), never on the event
 * loop, behind a bounded queue (`lib/core/worker_pool.ts`).
 *
 * A hash costs tens of milliseconds of CPU. On the event loop, 20 sign-ins at once stopped the
 * whole site (pages, donations, `/health`) for two seconds. Here each worker computes one hash at a
 * time; jobs beyond the workers wait in a queue of at most `maxQueue`, and a job beyond that is
 * refused at once with {@link PasswordsBusyError} (the API answers 503 with `Retry-After`): a flood
 * of sign-ins waits or is turned away, and everything else keeps being served.
 *
 * Workers start on the first job (most processes never hash: a donor page needs none), and
 * {@link PasswordPool.close} terminates them (the server's shutdown, a test's end). Where the
 * runtime cannot start a worker at all, the pool hashes on the calling thread, as before it
 * existed, within the same bounds, and says so once on the console.
 *
 * @module
 */
import type { Logger } from "@/lib/core/log.ts";
import { spareCores, WorkerPool, type WorkerPoolStats } from "@/lib/core/worker_pool.ts";
import { PasswordsBusyError } from "./errors.ts";
import type { Argon2Params } from "./password_worker.ts";

export type { Argon2Params };

/** Something that computes argon2id: the pool, or {@link IN_THREAD}. */
export interface Argon2Runner {
  /** The raw hash of `params`; throws {@link PasswordsBusyError} when it cannot be queued. */
  argon2id(params: Argon2Params): Promise<Uint8Array>;
}

/** The pool's size and queue bound (`PASSWORD_WORKERS`, `PASSWORD_QUEUE` in `lib/app/config.ts`). */
export interface PasswordPoolOptions {
  /** Workers at most, each hashing one password at a time. */
  workers: number;
  /** Jobs that may wait for a worker; one more is refused with {@link PasswordsBusyError}. */
  maxQueue: number;
  /** Makes a worker; the default runs `password_worker.ts`. (Tests give one that fails.) */
  createWorker?: () => Worker;
  /** Where the pool's one warning goes (workers unavailable): the app's log; stderr by default. */
  log?: Pick<Logger, "warn">;
}

/** What the pool has done and holds now; for tests and diagnostics. */
export type PasswordPoolStats = WorkerPoolStats;

/** The default number of workers: every core but one (for the event loop), at least one. */
export const defaultPasswordWorkers = spareCores;

/**
 * Computes argon2id on the calling thread. For command-line scripts (`scripts/seed.ts`) and tests,
 * where nothing else waits on the event loop; the server hashes through a {@link PasswordPool}.
 */
export const IN_THREAD: Argon2Runner = {
  // hash-wasm carries every algorithm it has as WebAssembly in one module, about 130 ms to load:
  // loaded on the first hash, not at every start.
  async argon2id(params) {
    const { argon2id } = await import("hash-wasm");
    return await argon2id({ ...params, outputType: "binary" });
  },
};

const passwordWorker = () =>
  new Worker(new URL("./password_worker.ts", import.meta.url).href, { type: "module" });

/**
 * A pool of password workers with a bounded queue (`lib/core/worker_pool.ts`).
 *
 * @example
 * ```ts
 * const pool = new PasswordPool({ workers: 1, maxQueue: 64 });
 * const phc = await hashPassword("violet-harbor-lantern", pool);
 * await pool.close();
 * ```
 */
export class PasswordPool implements Argon2Runner {
  readonly #pool: WorkerPool<Argon2Params, Uint8Array>;

  constructor(options: PasswordPoolOptions) {
    this.#pool = new WorkerPool({
      ...options,
      createWorker: options.createWorker ?? passwordWorker,
      busy: (seconds) => new PasswordsBusyError(seconds),
      name: "password",
      firstGuessMs: 100,
      inThread: IN_THREAD.argon2id,
    });
  }

  /** See {@link Argon2Runner.argon2id}. */
  argon2id(params: Argon2Params): Promise<Uint8Array> {
    return this.#pool.run(params);
  }

  /** Counters and the current load. */
  get stats(): PasswordPoolStats {
    return this.#pool.stats;
  }

  /** Terminates the workers; running and queued jobs fail. Idempotent. */
  close(): Promise<void> {
    return this.#pool.close();
  }
}
