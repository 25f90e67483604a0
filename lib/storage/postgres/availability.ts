/**
 * How the PostgreSQL store behaves while PostgreSQL is away: what an outage looks like from
 * postgres.js ({@link isUnavailable}), the bound on every repository call ({@link guarded},
 * {@link OPERATION_TIMEOUT_MS}), and the transaction runner that keeps two faults of postgres.js
 * from leaking an open transaction or ending the process ({@link transactionRunner}).
 *
 * A repository call that cannot reach PostgreSQL, or gets no answer in time, fails with
 * {@link StorageUnavailableError}, which the app answers with 503. The pools reconnect by
 * themselves (see `mod.ts`), so nothing here keeps state about an outage.
 *
 * @module
 */

import postgres from "postgres";
import { StorageUnavailableError } from "@/lib/storage/types.ts";

/**
 * The default bound of one repository call (its statements, and any wait for a pooled
 * connection): far above any statement of this store, short of a request timeout.
 */
export const OPERATION_TIMEOUT_MS = 10_000;

/** Errors after which a connection's socket is gone: postgres.js's, the socket's and the server's. */
const GONE_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "57P01",
  "57P02",
]);

/** Runs a body in a transaction; see {@link transactionRunner}. */
export type TransactionRunner = <T>(body: (tx: postgres.TransactionSql) => Promise<T>) => Promise<T>;

/**
 * Runs bodies in transactions (`sql.begin`) on `sql`, a pool kept for transactions, at most
 * `slots` (its size) at once, working around two faults of postgres.js 3.4.9, the latest release
 * (neither is fixed in it):
 * - when no connection is idle, `sql.begin` may pipeline BEGIN onto a busy connection without
 *   reserving it: the BEGIN fails with UNSAFE_TRANSACTION, and the transaction it opened on the
 *   server stays open on a connection back in the pool, where unrelated statements then run
 *   inside it (porsager/postgres#823, #1189; seen here under the load test). With one transaction
 *   per connection of a pool of their own, a BEGIN always finds an idle connection (or opens one);
 * - when the connection dies inside the transaction (PostgreSQL stopped or restarted, the network
 *   cut), `sql.begin` answers the failed body with ROLLBACK on the dead connection, and that write
 *   throws from a `setImmediate` callback: an uncaught TypeError ("Cannot read properties of null
 *   (reading 'write')") that ends the whole process (#1066, #1154, #1208). So a body that fails
 *   because its connection is gone never settles instead: postgres.js then rejects the `begin`
 *   itself as the close reaches its pool, and sends nothing more on the dead connection (the
 *   server rolls back a transaction whose connection is lost). The dropped body is collected.
 *
 * A transaction waits at most `waitMs` for a connection, then fails with StorageUnavailableError and
 * leaves the queue. Its caller has given up by then (every repository call is bounded by the same
 * time, {@link guarded}); left queued, the work of everyone who gave up during an outage would run
 * first once PostgreSQL is back, and new requests would wait behind it and time out in turn.
 *
 * @example
 * ```ts
 * import postgres from "postgres";
 * import { transactionRunner } from "./availability.ts";
 * const txSql = postgres("postgres://postgres:postgres@127.0.0.1:5432/postgres", { max: 2 });
 * const transaction = transactionRunner(txSql, 2);
 * await transaction(async (tx) => await tx`select 1`);
 * await txSql.end();
 * ```
 */
export function transactionRunner(
  sql: postgres.Sql,
  slots: number,
  waitMs: number = OPERATION_TIMEOUT_MS,
): TransactionRunner {
  let free = slots;
  const waiting: (() => void)[] = [];
  const slot = () =>
    new Promise<void>((resolve, reject) => {
      const granted = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(granted), 1);
        reject(new StorageUnavailableError(`No PostgreSQL connection for a transaction within ${waitMs} ms`));
      }, waitMs);
      waiting.push(granted);
    });
  return async <T>(body: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> => {
    if (free > 0) free--;
    else await slot();
    try {
      return await sql.begin((tx) =>
        body(tx).catch((error) => {
          if (connectionGone(error)) return new Promise<T>(() => {});
          throw error;
        })
      ) as T;
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

/** Whether an error means the connection's socket is gone (postgres.js's, the socket's, the server's). */
function connectionGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && GONE_CODES.has(code);
}

/** Error codes of postgres.js and of the socket that mean "the server cannot be reached". */
const UNREACHABLE_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_DESTROYED",
  "CONNECTION_ENDED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * Whether an error means PostgreSQL is unavailable rather than that a query was wrong: a socket or
 * connection failure, or a server answer of SQLSTATE class 08 (connection exception), 57P01-57P03
 * (shutting down, crashed, starting up) or 53300 (too many connections).
 *
 * @example
 * ```ts
 * isUnavailable(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })); // true
 * ```
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof postgres.PostgresError) return /^(08|57P0[123]$|53300$)/.test(error.code);
  if (
    error instanceof Deno.errors.ConnectionRefused || error instanceof Deno.errors.ConnectionReset ||
    error instanceof Deno.errors.ConnectionAborted || error instanceof Deno.errors.BrokenPipe ||
    error instanceof Deno.errors.TimedOut
  ) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && UNREACHABLE_CODES.has(code);
}

/**
 * The repository with every method bounded: a call that fails because PostgreSQL is unavailable,
 * or that gets no answer within `timeoutMs`, rejects with {@link StorageUnavailableError} (the app
 * answers 503) instead of a 500 or a request that hangs. A timed-out statement may still finish
 * on the server later; the store's writes are idempotent or atomic, so a retry is safe.
 *
 * @example
 * ```ts
 * const leases = guarded("leases", pgLeases(ctx), OPERATION_TIMEOUT_MS);
 * ```
 */
export function guarded<T extends object>(name: string, repo: T, timeoutMs: number): T {
  const out: Record<string, unknown> = {};
  for (const [method, value] of Object.entries(repo)) {
    if (typeof value !== "function") {
      out[method] = value;
      continue;
    }
    out[method] = async (...args: unknown[]) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        return await Promise.race([
          value.apply(repo, args),
          new Promise((_, reject) => {
            timer = setTimeout(
              () =>
                reject(
                  new StorageUnavailableError(
                    `PostgreSQL did not answer ${name}.${method} within ${timeoutMs} ms`,
                  ),
                ),
              timeoutMs,
            );
          }),
        ]);
      } catch (error) {
        if (error instanceof StorageUnavailableError || !isUnavailable(error)) throw error;
        throw new StorageUnavailableError(
          `PostgreSQL is unavailable (${name}.${method}): ${(error as Error).message}`,
          { cause: error },
        );
      } finally {
        clearTimeout(timer);
      }
    };
  }
  return out as T;
}
