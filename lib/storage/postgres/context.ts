/**
 * What every repository of the PostgreSQL store works with, as one explicit object
 * ({@link PgContext}) that `mod.ts` builds once per open store and hands to each concept's
 * factory, plus the small helpers several concepts share (instants, `set` clauses, constraint
 * errors).
 *
 * @module
 */

import postgres from "postgres";
import type { TransactionRunner } from "./availability.ts";

/** The open store's connections and settings, as the concept factories (`pgFlags(ctx)`, ...) get them. */
export interface PgContext {
  /** The pool for single statements (and `select 1` pings); never used for a transaction. */
  readonly sql: postgres.Sql;
  /**
   * Runs a body in a transaction on a pool of its own, one transaction per connection (see
   * `transactionRunner` in `availability.ts` for why).
   */
  readonly transaction: TransactionRunner;
  /** The schema every table lives in, or `undefined` for the server's `search_path`. */
  readonly schema: string | undefined;
  /** The bound of one repository call, in milliseconds (see `guarded`). */
  readonly operationTimeoutMs: number;
}

/** A `timestamptz` as the contract's ISO string, `null` kept. */
export const iso = (date: Date | null): string | null => (date === null ? null : date.toISOString());

/** Whether `error` is PostgreSQL's unique violation (23505) of the named constraint. */
export const isUniqueViolation = (error: unknown, constraint: string): boolean =>
  error instanceof postgres.PostgresError && error.code === "23505" && error.constraint_name === constraint;

/**
 * `changes` (already canonical) as a `set` of columns, by `columns`: fields without a column, and
 * fields left `undefined`, are not set.
 *
 * @example
 * ```ts
 * columnsOf({ status: "failed", updatedAt: "2025-01-01T00:00:00.000Z" }, { status: "status" });
 * // { status: "failed" }
 * ```
 */
export function columnsOf<T extends object>(
  changes: Partial<T>,
  columns: Partial<Record<keyof T, string>>,
): Record<string, string | number | boolean | null> {
  const set: Record<string, string | number | boolean | null> = {};
  for (const [field, value] of Object.entries(changes)) {
    const column = columns[field as keyof T];
    if (column === undefined || value === undefined) continue;
    set[column] = value as string | number | boolean | null;
  }
  return set;
}
