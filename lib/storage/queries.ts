/**
 * What is read, the same on both backends: the transaction lists and their dense numbering, what a
 * search matches, and the checked windows of every bounded read (pages, scans, batches, throttle
 * windows, daily-total ranges, imports). A backend decides nothing of this itself, so a query
 * answers the same rows on Deno KV and PostgreSQL.
 *
 * @example
 * ```ts
 * import { listsOf, pageWindow } from "./queries.ts";
 * listsOf({ kind: "success", isMonthly: true }); // ["success-all", "success-monthly"]
 * pageWindow({ page: 3, limit: 10 }); // { offset: 20, limit: 10 }
 * ```
 *
 * @module
 */
import { canonicalTransaction, checkInteger, isoInstant } from "./records.ts";
import { periodBounds } from "./report_queries.ts";
import type { SearchScope, Transaction, TransactionQuery, TransactionScanQuery } from "./types.ts";

/** The most events a throttle key keeps (and answers): the most recent ones. */
export const THROTTLE_MAX_EVENTS = 100;

/** Checks a throttle reservation's limit: 1 to {@link THROTTLE_MAX_EVENTS} (what a key keeps). */
export function checkLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > THROTTLE_MAX_EVENTS) {
    throw new RangeError(`limit must be an integer from 1 to ${THROTTLE_MAX_EVENTS}: ${limit}`);
  }
  return limit;
}

/**
 * The throttle events (ms, sorted) that are "within the last `windowMs`" at `now`: later than
 * `now - windowMs`, the most recent {@link THROTTLE_MAX_EVENTS} of them. Events later than `now`
 * (another instance whose clock runs ahead) count as within the window.
 */
export function throttleWindow(sortedTimes: readonly number[], now: number, windowMs: number): number[] {
  const cutoff = now - windowMs;
  return sortedTimes.filter((t) => t > cutoff).slice(-THROTTLE_MAX_EVENTS);
}

/** The sequenced lists of transactions; each has its own dense 1, 2, 3, ... numbering. */
export type TransactionList =
  | "success-all"
  | "success-monthly"
  | "success-one-time"
  | "error-all"
  | "error-monthly"
  | "error-one-time";

/** Every list, in a fixed order (by name, as PostgreSQL's `collate "C"` and KV order them). */
export const TRANSACTION_LISTS: readonly TransactionList[] = [
  "error-all",
  "error-monthly",
  "error-one-time",
  "success-all",
  "success-monthly",
  "success-one-time",
];

/** The lists a transaction joins when recorded: its kind's `-all` list, then its sub-list. */
export function listsOf(tx: Pick<Transaction, "kind" | "isMonthly">): [TransactionList, TransactionList] {
  return [`${tx.kind}-all`, `${tx.kind}-${tx.isMonthly ? "monthly" : "one-time"}`];
}

/** The list a query reads. */
export function listOf(kind: Transaction["kind"], isMonthly: boolean | undefined): TransactionList {
  return isMonthly === undefined ? `${kind}-all` : `${kind}-${isMonthly ? "monthly" : "one-time"}`;
}

/**
 * What a search matches against: the donor's email, first and last name, lower-cased, joined by a
 * separator no search term can match across (a term never matches across two fields).
 */
export function searchTextOf(user: Transaction["user"]): string {
  return [user.email, user.firstName, user.lastName].map((part) => part.toLowerCase()).join(SEARCH_SEPARATOR);
}

/** What separates the values of {@link searchTextOf}: no search term holds it. */
export const SEARCH_SEPARATOR = "\u001f";

/**
 * The distinct, non-empty parts of {@link searchTextOf} (what a search term must be a substring of
 * one of), sorted by UTF-16 code units: a transaction matches a term exactly when one of these
 * contains it. Sorted, so concurrent writers of the same values take their locks in one order.
 */
export function searchValuesOf(user: Transaction["user"]): string[] {
  return [...new Set(searchTextOf(user).split(SEARCH_SEPARATOR).filter((part) => part !== ""))].sort();
}

/**
 * Whether `user` matches the lower-cased `term` in `scope`: one of the values of
 * {@link searchTextOf} contains it: the email, first or last name (`all`), or a name holding no `@`
 * (`names`: an address never matches, nor a name that looks like one, as on PostgreSQL, where a
 * value is shared by every field that holds it).
 */
export function searchMatches(user: Transaction["user"], term: string, scope: SearchScope = "all"): boolean {
  const values = searchTextOf(user).split(SEARCH_SEPARATOR);
  return scope === "all"
    ? values.some((value) => value.includes(term))
    : values.slice(1).some((value) => !value.includes("@") && value.includes(term));
}

/** The lower-cased search term, or `null` when there is none (missing, empty or blank). */
export function searchTermOf(search: string | undefined): string | null {
  const term = search?.trim().toLowerCase().replaceAll(SEARCH_SEPARATOR, "");
  return term ? term : null;
}

/** The `offset` and `limit` of a page query; throws RangeError unless page and limit are integers >= 1. */
export function pageWindow(query: TransactionQuery): { offset: number; limit: number } {
  const page = checkInteger(query.page, "page", 1);
  const limit = checkInteger(query.limit, "limit", 1);
  const offset = (page - 1) * limit;
  checkInteger(offset + limit, "page * limit");
  return { offset, limit };
}

/** The largest batch `transactions.scan` answers. */
export const MAX_SCAN_LIMIT = 1_000;

/**
 * The checked parts of a `transactions.scan` query: `limit` (1..{@link MAX_SCAN_LIMIT}), the
 * search term, and the cursor as the sequence number the batch reads below (`null`: from the
 * newest). Cursors are the decimal sequence numbers both backends answer; throws RangeError for
 * anything else.
 */
export function scanWindow(
  query: TransactionScanQuery,
): { limit: number; term: string | null; before: number | null } {
  const limit = checkInteger(query.limit, "limit", 1);
  if (limit > MAX_SCAN_LIMIT) throw new RangeError(`limit must be at most ${MAX_SCAN_LIMIT}: ${limit}`);
  const cursor = query.before ?? null;
  if (cursor !== null && !/^[1-9][0-9]{0,14}$/.test(cursor)) {
    throw new RangeError(`not a transaction cursor: ${JSON.stringify(cursor)}`);
  }
  return { limit, term: searchTermOf(query.search), before: cursor === null ? null : Number(cursor) };
}

/**
 * The most records one batch call handles: the retention deletes, `payments.listPending`,
 * `sandbox.listUpdatedBefore` and `sandbox.deleteUnchanged`. Bounded so one call is one short
 * statement (PostgreSQL) or a few small commits (Deno KV), never a long transaction.
 */
export const MAX_BATCH = 1_000;

/** `limit` checked to be 1..{@link MAX_BATCH}; throws RangeError otherwise. */
export function batchLimit(limit: number, what = "limit"): number {
  checkInteger(limit, what, 1);
  if (limit > MAX_BATCH) throw new RangeError(`${what} must be at most ${MAX_BATCH}: ${limit}`);
  return limit;
}

/** The most periods (days) one `transactions.dailyTotals` call sums: a year and a day. */
export const MAX_TOTALS_PERIODS = 366;

/**
 * The checked bounds of `transactions.dailyTotals`: 2 to {@link MAX_TOTALS_PERIODS} + 1 strictly
 * ascending instants, normalized; throws RangeError otherwise.
 */
export function totalsBounds(bounds: readonly string[]): string[] {
  return periodBounds(bounds, MAX_TOTALS_PERIODS, "dailyTotals");
}

/**
 * The checked range of a list query (`range` of `TransactionQuery`): normalized instants with
 * `from <= to`, or null without one; throws RangeError otherwise. Both backends read it as a window
 * of the list: its transactions from the first with `createdAt >= from` up to the first with
 * `createdAt >= to` (the list being in time order, see `TransactionQuery.range`).
 */
export function listRange(
  range: { from: string; to: string } | undefined,
): { from: string; to: string } | null {
  if (range === undefined) return null;
  const from = isoInstant(range.from, "from");
  const to = isoInstant(range.to, "to");
  if (to < from) throw new RangeError(`to (${to}) is before from (${from})`);
  return { from, to };
}

/** The most transactions one `transactions.import()` call takes. */
export const MAX_IMPORT = 1_000;

/**
 * What `transactions.import(txs)` records, before looking at storage: every transaction
 * canonical ({@link canonicalTransaction}, which throws RangeError), in the order given, without
 * the repeats of a `(provider, providerTransactionId)` pair given earlier in the same call (the
 * first one wins, as with `record` one by one). Throws RangeError for more than
 * {@link MAX_IMPORT} transactions and for an id given to two different payments.
 */
export function importBatch(txs: readonly Transaction[]): Transaction[] {
  if (txs.length > MAX_IMPORT) {
    throw new RangeError(`import takes at most ${MAX_IMPORT} transactions per call, got ${txs.length}`);
  }
  const pairs = new Set<string>();
  const ids = new Set<string>();
  const out: Transaction[] = [];
  for (const input of txs) {
    const tx = canonicalTransaction(input);
    if (tx.providerTransactionId !== null) {
      const pair = JSON.stringify([tx.provider, tx.providerTransactionId]);
      if (pairs.has(pair)) continue;
      pairs.add(pair);
    }
    if (ids.has(tx.id)) throw new RangeError(`the id ${tx.id} is given to two transactions`);
    ids.add(tx.id);
    out.push(tx);
  }
  return out;
}
