/**
 * Work off the event loop: a few Web Workers behind a bounded queue, for the CPU-heavy jobs a
 * request or the mail sender would otherwise run on the thread that serves everyone (argon2id in
 * `lib/staff/password_pool.ts`, receipt PDFs in `lib/receipts/pdf_pool.ts`).
 *
 * Each worker runs one job at a time; jobs beyond the workers wait in a queue of at most
 * `maxQueue`, and a job beyond that is refused at once with the pool's `busy` error (which carries
 * a time to retry, the queue's work shared by the workers): a flood waits or is turned away, and
 * everything else keeps being served. Workers start on demand (a process that never needs one
 * never loads its libraries) and stay for the next job, until one has been idle for `idleMs`
 * ({@link WORKER_IDLE_MS}): each is a V8 isolate with its own heap and its libraries' code (a
 * receipt worker holds pdf-lib and the fonts), memory a server would otherwise keep for good after
 * one sign-in or one receipt. {@link WorkerPool.close} terminates them.
 *
 * A worker module answers jobs with {@link serveJobs}. Messages in: `{ id, job }`; out:
 * `{ id, result }` or `{ id, error }`.
 *
 * Where the runtime cannot start a worker, the pool runs jobs with `inThread` when it was given
 * one (and says so once), else fails them: a pool made without it never runs its work on the
 * calling thread.
 *
 * @module
 */
import type { Logger } from "./log.ts";

/** A job as the pool posts it to a worker. */
export interface JobMessage<In> {
  id: number;
  job: In;
}

/** A worker's answer to a job: the result, or why there is none. */
export type AnswerMessage<Out> = { id: number; result: Out } | { id: number; error: string };

/** What a {@link WorkerPool} is made with. */
export interface WorkerPoolOptions<In, Out> {
  /** Workers at most, each running one job at a time (1 or more). */
  workers: number;
  /** Jobs that may wait for a worker (0 or more); one more is refused with {@link busy}. */
  maxQueue: number;
  /** Makes a worker. */
  createWorker: () => Worker;
  /** The error a job beyond the queue is refused with, given the seconds to wait before retrying. */
  busy: (retryAfterSeconds: number) => Error;
  /** What the pool's jobs are, in its messages: `password`, `receipt PDF`. */
  name: string;
  /** A first guess at a job's duration, until one has been measured (for the retry time). */
  firstGuessMs: number;
  /**
   * Runs a job on the calling thread where the runtime cannot start a worker. Without it, such a
   * job fails: work that must never hold up the event loop is not given one.
   */
  inThread?: (job: In) => Promise<Out>;
  /** Where the pool's one warning goes (workers unavailable): the app's log; stderr by default. */
  log?: Pick<Logger, "warn">;
  /** How long a worker may wait for a job before it is terminated; {@link WORKER_IDLE_MS} by default. */
  idleMs?: number;
}

/**
 * How long an idle worker is kept (a minute): a burst of sign-ins or receipts is served by warm
 * workers, and a quiet server gives their memory back (starting one again costs its module loading,
 * tens of milliseconds, once per burst).
 */
export const WORKER_IDLE_MS = 60_000;

/** What the pool has done and holds now; for tests and diagnostics. */
export interface WorkerPoolStats {
  /** Jobs accepted since the pool was made (queued or run). */
  accepted: number;
  /** Jobs refused because the queue was full. */
  refused: number;
  /** Jobs being run now. */
  running: number;
  /** Jobs waiting for a worker now. */
  queued: number;
  /** Workers started and not terminated. */
  workers: number;
}

/**
 * Every core but one (for the event loop), at least one: the default size of a pool.
 *
 * @example
 * ```ts
 * spareCores(); // 1 on a 2-core machine
 * ```
 */
export function spareCores(): number {
  return Math.max(1, (navigator.hardwareConcurrency ?? 2) - 1);
}

interface Job<In, Out> {
  id: number;
  input: In;
  resolve(result: Out): void;
  reject(error: Error): void;
}

interface Slot<In, Out> {
  /** Null where this runtime cannot start workers. */
  worker: Worker | null;
  job: Job<In, Out> | null;
  /** Terminates the worker once it has been idle for `idleMs`. */
  idleTimer?: ReturnType<typeof setTimeout>;
}

/**
 * Workers and their bounded queue.
 *
 * @example
 * ```ts
 * const pool = new WorkerPool<Params, Uint8Array>({
 *   workers: 2, maxQueue: 64, name: "password", firstGuessMs: 100,
 *   createWorker: () => new Worker(new URL("./password_worker.ts", import.meta.url).href, { type: "module" }),
 *   busy: (seconds) => new PasswordsBusyError(seconds),
 * });
 * const hash = await pool.run(params);
 * await pool.close();
 * ```
 */
export class WorkerPool<In, Out> {
  readonly #o: WorkerPoolOptions<In, Out>;
  #workersUnavailable = false;
  readonly #slots: Slot<In, Out>[] = [];
  readonly #queue: Job<In, Out>[] = [];
  #nextId = 1;
  #accepted = 0;
  #refused = 0;
  #closed = false;
  // Moving average of a job's duration, for the retry time.
  #averageMs: number;

  constructor(options: WorkerPoolOptions<In, Out>) {
    if (!Number.isInteger(options.workers) || options.workers < 1) {
      throw new RangeError("workers must be >= 1");
    }
    if (!Number.isInteger(options.maxQueue) || options.maxQueue < 0) {
      throw new RangeError("maxQueue must be >= 0");
    }
    this.#o = { ...options };
    this.#averageMs = options.firstGuessMs;
  }

  /** The job's result, from a worker; the pool's `busy` error when the queue is full. */
  run(input: In): Promise<Out> {
    if (this.#closed) return Promise.reject(new Error(`the ${this.#o.name} pool is closed`));
    const idle = this.#slots.find((slot) => slot.job === null);
    const canStart = idle !== undefined || this.#slots.length < this.#o.workers;
    if (!canStart && this.#queue.length >= this.#o.maxQueue) {
      this.#refused++;
      return Promise.reject(this.#o.busy(this.#retryAfterSeconds()));
    }
    this.#accepted++;
    return new Promise<Out>((resolve, reject) => {
      const job: Job<In, Out> = { id: this.#nextId++, input, resolve, reject };
      if (idle) this.#start(idle, job);
      else if (canStart) this.#start(this.#spawn(), job);
      else this.#queue.push(job);
    });
  }

  /** Counters and the current load. */
  get stats(): WorkerPoolStats {
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
    const closed = new Error(`the ${this.#o.name} pool is closed`);
    for (const job of this.#queue.splice(0)) job.reject(closed);
    for (const slot of this.#slots.splice(0)) {
      clearTimeout(slot.idleTimer);
      slot.worker?.terminate();
      slot.job?.reject(closed);
    }
    return Promise.resolve();
  }

  // Seconds until a job queued now would likely start: the work ahead of it shared by the workers.
  #retryAfterSeconds(): number {
    const ahead = this.#queue.length + this.#o.workers;
    return Math.max(1, Math.ceil((ahead / this.#o.workers) * this.#averageMs / 1000));
  }

  #spawn(): Slot<In, Out> {
    let worker: Worker | null = null;
    if (!this.#workersUnavailable) {
      try {
        worker = this.#o.createWorker();
      } catch (e) {
        this.#workersUnavailable = true;
        const message = this.#o.inThread
          ? `${this.#o.name} workers unavailable, running on the event loop`
          : `${this.#o.name} workers unavailable: nothing can be done`;
        if (this.#o.log) this.#o.log.warn(message, { error: (e as Error).message });
        else console.warn(`${message}: ${(e as Error).message}`);
      }
    }
    const slot: Slot<In, Out> = { worker, job: null };
    this.#slots.push(slot);
    if (worker === null) return slot;
    worker.onmessage = ({ data }: MessageEvent<AnswerMessage<Out>>) => this.#finish(slot, data);
    // A worker that fails outside a job's own try (it could not load, it ran out of memory) is
    // replaced; its job fails, the others go on.
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#replace(slot, new Error(`${this.#o.name} worker failed: ${event.message}`));
    };
    return slot;
  }

  #start(slot: Slot<In, Out>, job: Job<In, Out>): void {
    clearTimeout(slot.idleTimer);
    slot.job = job;
    const started = performance.now();
    const done = job.resolve;
    job.resolve = (result) => {
      this.#averageMs = 0.8 * this.#averageMs + 0.2 * (performance.now() - started);
      done(result);
    };
    if (slot.worker === null) {
      const ran = this.#o.inThread
        ? this.#o.inThread(job.input)
        : Promise.reject(new Error(`${this.#o.name} workers unavailable in this runtime`));
      ran.then(
        (result) => this.#finish(slot, { id: job.id, result }),
        (e) => this.#finish(slot, { id: job.id, error: e instanceof Error ? e.message : String(e) }),
      );
      return;
    }
    const message: JobMessage<In> = { id: job.id, job: job.input };
    slot.worker.postMessage(message);
  }

  #finish(slot: Slot<In, Out>, answer: AnswerMessage<Out>): void {
    const job = slot.job;
    if (job === null || job.id !== answer.id) return;
    slot.job = null;
    if ("result" in answer) job.resolve(answer.result);
    else job.reject(new Error(`${this.#o.name} failed: ${answer.error}`));
    this.#next(slot);
  }

  #replace(slot: Slot<In, Out>, error: Error): void {
    clearTimeout(slot.idleTimer);
    slot.worker?.terminate();
    const index = this.#slots.indexOf(slot);
    if (index >= 0) this.#slots.splice(index, 1);
    slot.job?.reject(error);
    slot.job = null;
    if (!this.#closed && this.#queue.length > 0) this.#start(this.#spawn(), this.#queue.shift()!);
  }

  #next(slot: Slot<In, Out>): void {
    const job = this.#queue.shift();
    if (job) return this.#start(slot, job);
    if (this.#closed) return;
    const timer = setTimeout(() => {
      if (slot.job !== null) return;
      slot.worker?.terminate();
      const index = this.#slots.indexOf(slot);
      if (index >= 0) this.#slots.splice(index, 1);
    }, this.#o.idleMs ?? WORKER_IDLE_MS);
    // An idle worker's timer does not keep the process (or a test) alive.
    Deno.unrefTimer(timer);
    slot.idleTimer = timer;
  }
}

/**
 * The worker's side: answers each job the pool posts with `work`'s result (its buffers moved, not
 * copied, when `transfer` names them), or with the error's message. Call it once, in the worker
 * module.
 *
 * @example
 * ```ts
 * serveJobs(async (params: Argon2Params) => await argon2id(params), (hash) => [hash.buffer]);
 * ```
 */
export function serveJobs<In, Out>(
  work: (job: In) => Promise<Out>,
  transfer?: (result: Out) => Transferable[],
): void {
  // `self` is the worker's global scope here; typed loosely because the project checks every file
  // with the window's library.
  const scope = self as unknown as {
    onmessage: ((event: MessageEvent<JobMessage<In>>) => void) | null;
    postMessage(message: AnswerMessage<Out>, transfer?: Transferable[]): void;
  };
  scope.onmessage = async ({ data: { id, job } }) => {
    try {
      const result = await work(job);
      scope.postMessage({ id, result }, transfer?.(result) ?? []);
    } catch (e) {
      scope.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
    }
  };
}
