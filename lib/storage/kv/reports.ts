/**
 * The accountant's report figures on Deno KV (`store.reports`): summed in memory over the records
 * of the periods only, found through time index keys written in the same commit as each record.
 *
 * | key (owned by)                                                     | value           |
 * |--------------------------------------------------------------------|-----------------|
 * | `["transactions_by_time", createdAt, id]` (`transactions.ts`)       | transaction id  |
 * | `["subscriptions_by_created", createdAt, id]` (`subscriptions.ts`)  | subscription id |
 * | `["subscriptions_by_cancelled", cancelledAt, id]` (same)            | subscription id |
 * | `["refunds_by_settled", settledAt, txId, id]` (`refunds.ts`)        | [txId, id]      |
 *
 * Why indexes rather than monthly counters moved with each write: the count of distinct donors
 * cannot be kept as a counter without a key per donor and month read in every payment's commit,
 * and counters would tie every write path of transactions and subscriptions (records, imports,
 * cancels, erasure) to the report's rules. Why not the transaction lists: they are in the order
 * recorded, which is time order only as long as every writer keeps it (a back-fill need not); the
 * time index is exact whatever the order. A report thus reads one range of keys per index and the
 * records they name (500 at a time, in parallel `getMany` calls; a refund with the transaction it
 * refunded, which says whether the gift was monthly), in proportion to the periods' records, and
 * sums them as they come.
 *
 * @module
 */

import { retryWhileLocked } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { REFUNDS, REFUNDS_BY_SETTLED } from "./refunds.ts";
import { SUBSCRIPTIONS, SUBSCRIPTIONS_BY_CANCELLED, SUBSCRIPTIONS_BY_CREATED } from "./subscriptions.ts";
import { TRANSACTIONS, TRANSACTIONS_BY_TIME } from "./transactions.ts";
import {
  canonicalFigures,
  FigureSums,
  periodOf,
  reportBounds,
  reportDonorKey,
} from "@/lib/storage/report_queries.ts";
import type {
  Refund,
  ReportFigures,
  ReportGiftTotal,
  ReportRepository,
  ReportSubscriptionTotal,
  Subscription,
  Transaction,
} from "@/lib/storage/types.ts";

/** How many records one read of {@link eachIndexed} holds at once (a few parallel getMany calls). */
const READ_CHUNK = 500;

/**
 * Calls `visit` with each record an index names with `from <= time < to`, in index order, reading
 * the records {@link READ_CHUNK} at a time, so a long range never holds all of them at once.
 */
async function eachIndexed<T, V = string>(
  ctx: KvContext,
  index: string,
  recordKey: (value: V) => Deno.KvKey,
  range: { from: string; to: string },
  visit: (records: T[]) => Promise<void> | void,
): Promise<void> {
  const values = await retryWhileLocked(async () => {
    const out: V[] = [];
    const selector = { start: [index, range.from], end: [index, range.to] };
    for await (const entry of ctx.kv.list<V>(selector, { batchSize: 1_000 })) out.push(entry.value);
    return out;
  });
  for (let i = 0; i < values.length; i += READ_CHUNK) {
    const entries = await ctx.getAll<T>(values.slice(i, i + READ_CHUNK).map(recordKey));
    await visit(entries.flatMap((entry) => entry.value === null ? [] : [entry.value]));
  }
}

/** The record key of an index that names records by id alone. */
const byId = (part: string) => (id: string): Deno.KvKey => [part, id];

/** `reports.figures`: each index's range over all the periods, summed per period. */
async function figures(ctx: KvContext, input: readonly string[]): Promise<ReportFigures> {
  const bounds = reportBounds(input);
  const range = { from: bounds[0], to: bounds[bounds.length - 1] };
  const gifts = new FigureSums<ReportGiftTotal>();
  const failed = new FigureSums<{ period: number; isMonthly: boolean; count: number }>();
  const donors = new Map<number, Set<string>>();
  const countTransaction = (tx: Transaction) => {
    const period = periodOf(bounds, tx.createdAt);
    if (period < 0) return;
    if (tx.kind === "error") return failed.add({ period, isMonthly: tx.isMonthly });
    const seen = donors.get(period) ?? new Set<string>();
    donors.set(period, seen.add(reportDonorKey(tx)));
    if (tx.amount === null || tx.currency === null) return;
    gifts.add({ period, currency: tx.currency, isMonthly: tx.isMonthly }, tx.amount);
  };
  const subscriptionSums = (at: (s: Subscription) => string | null) => {
    const sums = new FigureSums<ReportSubscriptionTotal>();
    const count = (sub: Subscription) => {
      const time = at(sub);
      const period = time === null ? -1 : periodOf(bounds, time);
      if (period >= 0) sums.add({ period, currency: sub.currency }, sub.amount);
    };
    return { sums, count };
  };
  const created = subscriptionSums((s) => s.createdAt);
  const cancelled = subscriptionSums((s) => s.status === "cancelled" ? s.cancelledAt : null);
  // A refund counts under the kind of gift it refunded: its transactions are read with it.
  const refunds = new FigureSums<ReportGiftTotal>();
  const countRefunds = async (batch: Refund[]) => {
    const ids = [...new Set(batch.map((r) => r.transactionId))];
    const txs = await ctx.getAll<Transaction>(ids.map(byId(TRANSACTIONS)));
    const monthly = new Map(txs.flatMap((e) => e.value === null ? [] : [[e.value.id, e.value.isMonthly]]));
    for (const r of batch) {
      const period = r.state === "succeeded" && r.settledAt !== null ? periodOf(bounds, r.settledAt) : -1;
      const isMonthly = monthly.get(r.transactionId);
      if (period >= 0 && isMonthly !== undefined) {
        refunds.add({ period, currency: r.currency, isMonthly }, r.amount);
      }
    }
  };
  const each = <T>(records: T[], visit: (record: T) => void) => records.forEach(visit);
  await Promise.all([
    eachIndexed<Transaction>(
      ctx,
      TRANSACTIONS_BY_TIME,
      byId(TRANSACTIONS),
      range,
      (b) => each(b, countTransaction),
    ),
    eachIndexed<Subscription>(
      ctx,
      SUBSCRIPTIONS_BY_CREATED,
      byId(SUBSCRIPTIONS),
      range,
      (b) => each(b, created.count),
    ),
    eachIndexed<Subscription>(
      ctx,
      SUBSCRIPTIONS_BY_CANCELLED,
      byId(SUBSCRIPTIONS),
      range,
      (b) => each(b, cancelled.count),
    ),
    eachIndexed<Refund, [string, string]>(
      ctx,
      REFUNDS_BY_SETTLED,
      ([tx, id]) => [REFUNDS, tx, id],
      range,
      countRefunds,
    ),
  ]);
  return canonicalFigures({
    gifts: gifts.values(),
    refunds: refunds.values(),
    donors: [...donors].map(([period, seen]) => ({ period, count: seen.size })),
    failed: failed.values(),
    newMonthly: created.sums.values(),
    cancelledMonthly: cancelled.sums.values(),
  });
}

/** The {@link ReportRepository} of the store on `ctx`. */
export function kvReports(ctx: KvContext): ReportRepository {
  return { figures: (bounds) => figures(ctx, bounds) };
}
