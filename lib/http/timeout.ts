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
  return async (c, next) => {
    const ms = limit(c);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        next(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new RequestTimeoutError(ms)), ms);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  };
}
