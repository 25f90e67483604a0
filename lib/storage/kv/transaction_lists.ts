/**
 * The transaction lists on Deno KV: what pages, searches, scans and daily totals read.
 *
 * | key                                | value                              | written by                   |
 * |------------------------------------|------------------------------------|------------------------------|
 * | `["transactions_count", list]`     | number: last seq of the list       | transactions.record, .import |
 * | `["transactions_list", list, seq]` | Transaction (copy: one range read) | transactions.record, .import |
 *
 * Six lists (`success-all`, `success-monthly`, `success-one-time`, `error-all`, `error-monthly`,
 * `error-one-time`) each number their transactions 1, 2, 3, ... in the order recorded: a
 * transaction joins its kind's `-all` list and its monthly or one-time sub-list, and `record`
 * increments both counters and writes both `["transactions_list", list, seq]` copies in one
 * commit (`transactions.ts`). Numbers sort as numbers in KV keys, so newest first is highest
 * sequence first, and page `p` of `limit` is the one range `(total - p*limit, total - (p-1)*limit]`:
 * a page costs one counter read and one range read of `limit` values, however long the list.
 * A search cannot use that: it scans the list newest first and filters (fine for a back office;
 * use PostgreSQL, with its trigram index, for large histories). `scan` reads the same ranges below
 * a cursor (the last sequence number read), so a whole list is read batch by batch at the cost of
 * each batch; `dailyTotals` reads `success-all` newest first and stops at the first transaction
 * older than its range.
 *
 * Entries never change once written, and every sequence number up to a counter's value is written
 * in the same commit as the counter, so a range below the counter is a consistent snapshot.
 *
 * @module
 */

import { retryWhileLocked } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import {
  listOf,
  listRange,
  pageWindow,
  scanWindow,
  searchMatches,
  searchTermOf,
  totalsBounds,
  type TransactionList,
} from "@/lib/storage/queries.ts";
import { periodOf } from "@/lib/storage/report_queries.ts";
import type {
  DailyTotal,
  Page,
  Transaction,
  TransactionBatch,
  TransactionQuery,
  TransactionRepository,
  TransactionScanQuery,
} from "@/lib/storage/types.ts";

/** The counter of each list: its last sequence number. */
export const TRANSACTIONS_COUNT = "transactions_count";
/** The entries of each list, by sequence number: copies of the transactions. */
export const TRANSACTIONS_LIST = "transactions_list";

/** How many list entries one `scan` call with a search reads at most (at least its `limit`). */
const SCAN_SEARCH_BUDGET = 5_000;

/** The sequence number just after the last of `list` (its counter plus one). */
async function listEnd(kv: Deno.Kv, list: TransactionList): Promise<number> {
  return ((await kv.get<number>([TRANSACTIONS_COUNT, list])).value ?? 0) + 1;
}

/**
 * The window `[low, high)` of sequence numbers below `end` that `range` covers: `low` the first
 * transaction with `createdAt >= from`, `high` the first with `createdAt >= to` (`end` when none).
 * Without a range, the whole list `[1, end)`. A binary search over the list, which is in time order
 * (see `TransactionQuery.range`): about 2 log2(n) reads of one entry.
 */
async function windowOf(
  kv: Deno.Kv,
  list: TransactionList,
  end: number,
  range: { from: string; to: string } | null,
): Promise<{ low: number; high: number }> {
  if (range === null) return { low: 1, high: end };
  const firstAtOrAfter = async (instant: string, low: number) => {
    let high = end; // the answer is in [low, high]
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      const tx = (await kv.get<Transaction>([TRANSACTIONS_LIST, list, mid])).value;
      if (tx === null || tx.createdAt >= instant) high = mid;
      else low = mid + 1;
    }
    return low;
  };
  const low = await firstAtOrAfter(range.from, 1);
  return { low, high: await firstAtOrAfter(range.to, low) };
}

/**
 * One page of `list` (or of its window in `query.range`): a counter read and one range read of the
 * page, or a scan with `search`.
 */
async function listPage(
  { kv }: KvContext,
  list: TransactionList,
  query: TransactionQuery,
): Promise<Page<Transaction>> {
  const { offset, limit } = pageWindow(query);
  const term = searchTermOf(query.search);
  const range = listRange(query.range);
  // Retried as a whole: a listing interrupted half way restarts from the first key.
  return await retryWhileLocked(async () => {
    // Entries never change once written, and every seq below the end is written together with the
    // counter: reading the range below it is a consistent snapshot of the list.
    const window = await windowOf(kv, list, await listEnd(kv, list), range);
    if (term === null) {
      const total = window.high - window.low;
      const top = window.high - 1 - offset;
      const bottom = Math.max(window.low - 1, top - limit);
      const data: Transaction[] = [];
      if (top < window.low) return { data, total };
      const selector = {
        start: [TRANSACTIONS_LIST, list, bottom + 1],
        end: [TRANSACTIONS_LIST, list, top + 1],
      };
      for await (const entry of kv.list<Transaction>(selector, { reverse: true, batchSize: limit })) {
        data.push(entry.value);
      }
      return { data, total };
    }
    // Search: KV has no text index, so this scans the whole list (or window), newest first.
    const data: Transaction[] = [];
    let matches = 0;
    const selector = {
      start: [TRANSACTIONS_LIST, list, window.low],
      end: [TRANSACTIONS_LIST, list, window.high],
    };
    for await (const entry of kv.list<Transaction>(selector, { reverse: true, batchSize: 500 })) {
      if (!searchMatches(entry.value.user, term, query.searchScope)) continue;
      if (matches >= offset && data.length < limit) data.push(entry.value);
      matches++;
    }
    return { data, total: matches };
  });
}

/** `transactions.scan`: one batch of a list below the cursor, newest first. */
async function scan({ kv }: KvContext, query: TransactionScanQuery): Promise<TransactionBatch> {
  const { limit, term, before } = scanWindow(query);
  const list = listOf(query.kind, query.isMonthly);
  const range = listRange(query.range);
  return await retryWhileLocked(async () => {
    // Below the cursor, or below the end of the list (or of its window) as it is now: entries never
    // change once written, so later batches read exactly what the first one left.
    const window = before !== null && range === null
      ? { low: 1, high: before }
      : await windowOf(kv, list, await listEnd(kv, list), range);
    const high = Math.min(before ?? window.high, window.high);
    const low = window.low;
    const selector = { start: [TRANSACTIONS_LIST, list, low], end: [TRANSACTIONS_LIST, list, high] };
    const data: Transaction[] = [];
    let last = high;
    if (term === null) {
      for await (
        const entry of kv.list<Transaction>(selector, { reverse: true, limit, batchSize: limit })
      ) {
        data.push(entry.value);
        last = entry.key[2] as number;
      }
      return { data, next: data.length === limit && last > low ? String(last) : null };
    }
    // Search: a bounded scan per call, so one call never reads the whole list for a rare term.
    const budget = Math.max(limit, SCAN_SEARCH_BUDGET);
    let read = 0;
    for await (
      const entry of kv.list<Transaction>(selector, { reverse: true, limit: budget, batchSize: 500 })
    ) {
      read++;
      last = entry.key[2] as number;
      if (searchMatches(entry.value.user, term)) data.push(entry.value);
      if (data.length === limit) break;
    }
    const more = (data.length === limit || read === budget) && last > low;
    return { data, next: more ? String(last) : null };
  });
}

/** `transactions.dailyTotals`: `success-all` newest first, down to the start of the first period. */
async function dailyTotals(
  { kv }: KvContext,
  input: readonly string[],
): Promise<DailyTotal[]> {
  const bounds = totalsBounds(input);
  return await retryWhileLocked(async () => {
    const sums = new Map<string, DailyTotal>();
    const selector = { prefix: [TRANSACTIONS_LIST, "success-all"] };
    for await (const entry of kv.list<Transaction>(selector, { reverse: true, batchSize: 500 })) {
      const tx = entry.value;
      // The list is in time order (see the contract): the first one older than the periods ends it.
      if (tx.createdAt < bounds[0]) break;
      const period = periodOf(bounds, tx.createdAt);
      if (period < 0 || tx.amount === null || tx.currency === null) continue;
      const key = `${period}/${tx.currency}`;
      const sum = sums.get(key) ?? { period, currency: tx.currency, amount: 0, count: 0 };
      sum.amount += tx.amount;
      sum.count++;
      sums.set(key, sum);
    }
    return [...sums.values()].sort((a, b) => a.period - b.period || a.currency - b.currency);
  });
}

/** The read side of the {@link TransactionRepository} of the store on `ctx`: the list readers. */
export function kvTransactionLists(
  ctx: KvContext,
): Pick<TransactionRepository, "listSuccess" | "listErrors" | "scan" | "dailyTotals"> {
  return {
    async listSuccess(query) {
      return await listPage(ctx, listOf("success", query.isMonthly), query);
    },
    async listErrors(query) {
      return await listPage(ctx, listOf("error", query.isMonthly), query);
    },
    scan: (query) => scan(ctx, query),
    dailyTotals: (bounds) => dailyTotals(ctx, bounds),
  };
}
