/**
 * The request timeout: no request waits longer than its limit for an answer. Past it the client
 * gets 503 (the app's error handler answers JSON under `/api`, a page elsewhere) while the work
 * goes on in the background; every write the app makes is idempotent or atomic, so a client that
 * tries again is safe.
 *
 * The limits ({@link REQUEST_TIMEOUT_MS}) sit above the longest legitimate wait: two provider
 * calls of 15 s each (verifying a Pelecard payment) plus storage, each storage call being bounded
 * on its own (`lib/storage/postgres/availability.ts`). A terminal sale waits for the card for its
 * deadline on top of that.
 *
 * @module
 */
import type { Context, MiddlewareHandler } from "hono";

/** The limit of an ordinary request. */
export const REQUEST_TIMEOUT_MS = 45_000;

/** A request ran past its limit. */
export class RequestTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`The request did not finish within ${ms} ms`);
    this.name = "RequestTimeoutError";
  }
}

/**
 * Fails a request with {@link RequestTimeoutError} when it runs longer than `limit(c)` ms.
 *
 * @example
 * ```ts
 * app.use(requestTimeout((c) => c.req.path === "/api/payment/pay-emv" ? 105_000 : REQUEST_TIMEOUT_MS));
 * ```
 */
export function requestTimeout(limit: (c: Context) => number): MiddlewareHandler {
  const deadlines = new Deadlines();
  return (c, next) => deadlines.within(limit(c), next);
}

interface Waiting {
  at: number;
  ms: number;
  reject: (error: RequestTimeoutError) => void;
}

/**
 * The deadlines of the requests in flight, kept by one timer. A timer per request (set, then
 * cleared) cost more than the rest of a cached page's answer (`bench/README.md`, request pipeline).
 * Requests with the same limit expire in the order they started, so each limit keeps a queue in
 * that order, and the timer waits for the earliest head. It is never cleared: when it fires it fails
 * what is due and waits for the next head, if any. It keeps the process alive only while a request
 * is in flight (unreferenced when the last one ends, referenced again by the next), so an idle
 * process, or a test, has nothing pending.
 *
 * @example
 * ```ts
 * const deadlines = new Deadlines();
 * await deadlines.within(45_000, () => handle(request)); // RequestTimeoutError after 45 s
 * ```
 */
export class Deadlines {
  /** Limit (ms) → the requests in flight with that limit, oldest first. */
  readonly #queues = new Map<number, Map<number, Waiting>>();
  #next = 0;
  #timerAt = Infinity;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inFlight = 0;

  /**
   * Runs `work`, failing with {@link RequestTimeoutError} if it is not done within `ms`. Work that
   * answers at once (a cached page) is answered as it is: it cannot have run late, and keeps no
   * promise, closure or queue entry.
   */
  within<T>(ms: number, work: () => Promise<T>): Promise<T>;
  within<T>(ms: number, work: () => T | Promise<T>): T | Promise<T>;
  within<T>(ms: number, work: () => T | Promise<T>): T | Promise<T> {
    const at = Date.now() + ms;
    const done = work();
    if (!(done instanceof Promise)) return done;
    let queue = this.#queues.get(ms);
    if (!queue) this.#queues.set(ms, queue = new Map());
    const id = this.#next++;
    if (this.#inFlight++ === 0 && this.#timer !== undefined) ref(this.#timer, true);
    if (at < this.#timerAt) this.#arm(at);
    return new Promise<T>((resolve, reject) => {
      queue.set(id, { at, ms, reject });
      const end = () => {
        queue.delete(id);
        if (--this.#inFlight === 0 && this.#timer !== undefined) ref(this.#timer, false);
      };
      done.then((value) => {
        end();
        resolve(value);
      }, (error) => {
        end();
        reject(error);
      });
    });
  }

  #arm(at: number): void {
    // Only when a shorter limit comes along: the timer for a later deadline gives way.
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#expire(at), Math.max(0, at - Date.now()));
    if (this.#inFlight === 0) ref(this.#timer, false);
  }

  #expire(armedFor: number): void {
    if (armedFor !== this.#timerAt) return;
    this.#timerAt = Infinity;
    this.#timer = undefined;
    const now = Date.now();
    let earliest = Infinity;
    for (const queue of this.#queues.values()) {
      for (const [id, waiting] of queue) {
        if (waiting.at > now) {
          earliest = Math.min(earliest, waiting.at);
          break;
        }
        queue.delete(id);
        waiting.reject(new RequestTimeoutError(waiting.ms));
      }
    }
    if (earliest < Infinity) this.#arm(earliest);
  }
}

/** Whether `timer` keeps the process alive (Deno's timers are numbers, or Node's `Timeout`). */
function ref(timer: ReturnType<typeof setTimeout>, keepAlive: boolean): void {
  if (typeof timer === "number") (keepAlive ? Deno.refTimer : Deno.unrefTimer)(timer);
  else {
    const t = timer as { ref?: () => void; unref?: () => void };
    (keepAlive ? t.ref : t.unref)?.call(timer);
  }
}
