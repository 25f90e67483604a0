/**
 * The password pool: argon2id runs in a few Web Workers (`password_worker.ts`), never on the event
 * loop, behind a bounded queue.
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
import type { Logger } from "../log.ts";
import { PasswordsBusyError } from "./errors.ts";
import type { Argon2Params, WorkerAnswer, WorkerJob } from "./password_worker.ts";

export type { Argon2Params };

/** Something that computes argon2id: the pool, or {@link IN_THREAD}. */
export interface Argon2Runner {
  /** The raw hash of `params`; throws {@link PasswordsBusyError} when it cannot be queued. */
  argon2id(params: Argon2Params): Promise<Uint8Array>;
}

/** The pool's size and queue bound (`PASSWORD_WORKERS`, `PASSWORD_QUEUE` in `lib/config.ts`). */
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
export interface PasswordPoolStats {
  /** Jobs accepted since the pool was made (queued or run). */
  accepted: number;
  /** Jobs refused because the queue was full. */
  refused: number;
  /** Jobs being computed now. */
  running: number;
  /** Jobs waiting for a worker now. */
  queued: number;
  /** Workers started and not terminated. */
  workers: number;
}

/** The default number of workers: every core but one (for the event loop), at least one. */
export function defaultPasswordWorkers(): number {
  return Math.max(1, (navigator.hardwareConcurrency ?? 2) - 1);
}

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

interface Job {
  id: number;
  params: Argon2Params;
  resolve(hash: Uint8Array): void;
  reject(error: Error): void;
}

interface Slot {
  /** Null where this runtime cannot start workers: the slot then hashes on the calling thread. */
  worker: Worker | null;
  job: Job | null;
}

const passwordWorker = () =>
  new Worker(new URL("./password_worker.ts", import.meta.url).href, { type: "module" });

// A first guess at a hash's duration, until one has been measured (for Retry-After).
const FIRST_GUESS_MS = 100;

/**
 * A pool of password workers with a bounded queue.
 *
 * @example
 * ```ts
 * const pool = new PasswordPool({ workers: 1, maxQueue: 64 });
 * const phc = await hashPassword("violet-harbor-lantern", pool);
 * await pool.close();
 * ```
 */
export class PasswordPool implements Argon2Runner {
  readonly #options: PasswordPoolOptions;
  readonly #createWorker: () => Worker;
  #workersUnavailable = false;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  #nextId = 1;
  #accepted = 0;
  #refused = 0;
  #closed = false;
  // Moving average of a job's duration, for the Retry-After estimate.
  #averageMs = FIRST_GUESS_MS;

  constructor(options: PasswordPoolOptions) {
    if (!Number.isInteger(options.workers) || options.workers < 1) {
      throw new RangeError("workers must be >= 1");
    }
    if (!Number.isInteger(options.maxQueue) || options.maxQueue < 0) {
      throw new RangeError("maxQueue must be >= 0");
    }
    this.#options = { ...options };
    this.#createWorker = options.createWorker ?? passwordWorker;
  }

  /** See {@link Argon2Runner.argon2id}. */
  argon2id(params: Argon2Params): Promise<Uint8Array> {
    if (this.#closed) return Promise.reject(new Error("the password pool is closed"));
    const idle = this.#slots.find((slot) => slot.job === null);
    const canStart = idle !== undefined || this.#slots.length < this.#options.workers;
    if (!canStart && this.#queue.length >= this.#options.maxQueue) {
      this.#refused++;
      return Promise.reject(new PasswordsBusyError(this.#retryAfterSeconds()));
    }
    this.#accepted++;
    return new Promise<Uint8Array>((resolve, reject) => {
      const job: Job = { id: this.#nextId++, params, resolve, reject };
      if (idle) this.#start(idle, job);
      else if (canStart) this.#start(this.#spawn(), job);
      else this.#queue.push(job);
    });
  }

  /** Counters and the current load. */
  get stats(): PasswordPoolStats {
    return {
      accepted: this.#accepted,
      refused: this.#refused,
      running: this.#slots.filter((slot) => slot.job !== null).length,
      queued: this.#queue.length,
      workers: this.#slots.length,
    };
  }

  /** Terminates the workers; running and queued jobs fail. Idempotent. */
  close(): Promise<void> {
    this.#closed = true;
    const closed = new Error("the password pool is closed");
    for (const job of this.#queue.splice(0)) job.reject(closed);
    for (const slot of this.#slots.splice(0)) {
      slot.worker?.terminate();
      slot.job?.reject(closed);
    }
    return Promise.resolve();
  }

  // Seconds until a job queued now would likely start: the work ahead of it shared by the workers.
  #retryAfterSeconds(): number {
    const ahead = this.#queue.length + this.#options.workers;
    return Math.max(1, Math.ceil((ahead / this.#options.workers) * this.#averageMs / 1000));
  }

  #spawn(): Slot {
    let worker: Worker | null = null;
    if (!this.#workersUnavailable) {
      try {
        worker = this.#createWorker();
      } catch (e) {
        this.#workersUnavailable = true;
        const message = "password workers unavailable, hashing on the event loop";
        if (this.#options.log) this.#options.log.warn(message, { error: (e as Error).message });
        else console.warn(`${message}: ${(e as Error).message}`);
      }
    }
    const slot: Slot = { worker, job: null };
    this.#slots.push(slot);
    if (worker === null) return slot;
    worker.onmessage = ({ data }: MessageEvent<WorkerAnswer>) => this.#finish(slot, data);
    // A worker that fails outside a job's own try (it could not load, it ran out of memory) is
    // replaced; its job fails, the others go on.
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#replace(slot, new Error(`password worker failed: ${event.message}`));
    };
    return slot;
  }

  #start(slot: Slot, job: Job): void {
    slot.job = job;
    const started = performance.now();
    const done = job.resolve;
    job.resolve = (hash) => {
      this.#averageMs = 0.8 * this.#averageMs + 0.2 * (performance.now() - started);
      done(hash);
    };
    if (slot.worker === null) {
      IN_THREAD.argon2id(job.params).then(
        (hash) => this.#finish(slot, { id: job.id, hash }),
        (e) => this.#finish(slot, { id: job.id, error: e instanceof Error ? e.message : String(e) }),
      );
      return;
    }
    const message: WorkerJob = { id: job.id, params: job.params };
    slot.worker.postMessage(message);
  }

  #finish(slot: Slot, answer: WorkerAnswer): void {
    const job = slot.job;
    if (job === null || job.id !== answer.id) return;
    slot.job = null;
    if ("hash" in answer) job.resolve(answer.hash);
    else job.reject(new Error(`argon2id failed: ${answer.error}`));
    this.#next(slot);
  }

  #replace(slot: Slot, error: Error): void {
    slot.worker?.terminate();
    const index = this.#slots.indexOf(slot);
    if (index >= 0) this.#slots.splice(index, 1);
    slot.job?.reject(error);
    slot.job = null;
    if (!this.#closed && this.#queue.length > 0) this.#start(this.#spawn(), this.#queue.shift()!);
  }

  #next(slot: Slot): void {
    const job = this.#queue.shift();
    if (job) this.#start(slot, job);
  }
}
