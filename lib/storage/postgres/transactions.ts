/**
 * Transactions on PostgreSQL: recording them (once per provider transaction), importing them in
 * batches, and reading one; the lists, searches, scans and daily totals are in
 * `transaction_lists.ts`, the tables' shape in `transaction_rows.ts`.
 *
 * Writes touch `transactions`, `transaction_counters`, `search_values` and `transaction_search`
 * (migrations 6, 7 and 9) together, so a list's numbers stay dense (1, 2, 3, ... without gaps)
 * and every row has its search entries from the moment it is visible:
 * - `record` is one call of the `record_transaction` function (migration 11): it moves the
 *   counters of the row's two lists, inserts the row and its search entries, and raises on a
 *   duplicate `(provider, provider_transaction_id)` so the numbers roll back with it. The
 *   counters' lock is held only inside PostgreSQL, never across a round trip to the app;
 * - `import` is one transaction per call that locks all six counter rows (`for update`, in the
 *   order `record` takes them), finds the pairs that exist, numbers the new rows, inserts them in
 *   one multi-row `insert ... on conflict do nothing`, and moves each counter once. Under those
 *   locks no `record` can commit in between, so a skipped duplicate never takes a sequence number.
 *
 * `record` given messages inserts them into `outbox` (migration 17) in the same statement.
 *
 * `getByProviderId` reads the unique `(provider, provider_transaction_id)` index (migration 6);
 * `listByDonors` (the donor portal) the `donor_id` index (migration 6).
 *
 * @module
 */

import postgres from "postgres";
import { importBatch, listsOf, searchValuesOf } from "@/lib/storage/queries.ts";
import { canonicalMessages } from "@/lib/storage/outbox_records.ts";
import { donorListArgs } from "@/lib/storage/donor_queries.ts";
import { MAX_MESSAGES_PER_CAUSE, type WithMessages } from "@/lib/storage/outbox_types.ts";
import { canonicalTransaction } from "@/lib/storage/records.ts";
import type { Transaction, TransactionRepository } from "@/lib/storage/types.ts";
import { insertMessages } from "./outbox.ts";
import type { PgContext } from "./context.ts";
import { dailyTotals, listPage, scan } from "./transaction_lists.ts";
import { searchPartOf, toTransaction, transactionColumns, type TransactionRow } from "./transaction_rows.ts";

/** Rolls a record() transaction back when its (provider, id) pair turned out to exist. */
const DUPLICATE = Symbol("duplicate");

/** The transaction the provider knows by `providerTransactionId`, if recorded. */
async function getByProviderId(
  { sql }: PgContext,
  provider: string,
  providerTransactionId: string,
): Promise<Transaction | null> {
  const [row] = await sql<TransactionRow[]>`
    select * from transactions
    where provider = ${provider} and provider_transaction_id = ${providerTransactionId}
  `;
  return row ? toTransaction(row) : null;
}

/**
 * `transactions.record`: one call of `record_transaction` (migration 11); see the module header.
 * With messages, the same statement inserts them after it (a `with` query: a duplicate's raise
 * rolls them back with the numbers), so they cost no round trip of their own.
 */
async function record(
  ctx: PgContext,
  input: Transaction,
  options: WithMessages = {},
): Promise<{ created: boolean; transaction: Transaction }> {
  const { sql } = ctx;
  const t = canonicalTransaction(input);
  const messages = canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE);
  const [allList, subList] = listsOf(t);
  if (t.providerTransactionId !== null) {
    const existing = await getByProviderId(ctx, t.provider, t.providerTransactionId);
    if (existing) return { created: false, transaction: existing };
  }
  // One statement, so the counters' lock is held only inside PostgreSQL (migration 11).
  let row: TransactionRow | typeof DUPLICATE;
  try {
    const call = sql`
      select * from record_transaction(
        ${sql.json(transactionColumns(t) as postgres.JSONValue)}, ${allList}, ${subList ?? null},
        ${searchPartOf(t)}, ${searchValuesOf(t.user)}::text[]
      )
    `;
    [row] = messages.length === 0 ? await sql<TransactionRow[]>`${call}` : await sql<TransactionRow[]>`
      with recorded as (${call}),
      messages as (${insertMessages(sql, messages, t.createdAt, sql`where exists (select 1 from recorded)`)})
      select * from recorded
    `;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== "DR001") throw error;
    row = DUPLICATE;
  }
  if (row !== DUPLICATE) return { created: true, transaction: toTransaction(row) };
  // Another record of the same pair committed first.
  const existing = await getByProviderId(ctx, t.provider, t.providerTransactionId!);
  if (!existing) throw new Error(`transaction ${t.provider}/${t.providerTransactionId} vanished`);
  return { created: false, transaction: existing };
}

/** `transactions.import`: one transaction under every counter's lock; see the module header. */
async function importTransactions({ sql, transaction }: PgContext, input: Transaction[]): Promise<number> {
  const batch = importBatch(input);
  if (batch.length === 0) return 0;
  return await transaction(async (tx) => {
    // Every list counter, locked in the order record() takes them (by name: each -all list
    // before its sub-lists): no record() of any list commits until this transaction does, so
    // the pairs found below are all there are, and numbers given here are not taken twice.
    const counters = new Map(
      (await tx<{ list: string; n: string }[]>`
        select list, n from transaction_counters order by list collate "C" for update
      `).map((row) => [row.list, Number(row.n)]),
    );
    // A new statement after the lock: sees every record() committed before it was granted.
    const paired = batch.filter((t) => t.providerTransactionId !== null);
    const existing = new Set(
      paired.length === 0 ? [] : (await tx<{ provider: string; ptid: string }[]>`
        select t.provider, t.provider_transaction_id as ptid
        from transactions t
        join unnest(
          ${paired.map((t) => t.provider)}::text[],
          ${paired.map((t) => t.providerTransactionId!)}::text[]
        ) as p (provider, ptid)
          on t.provider = p.provider and t.provider_transaction_id = p.ptid
      `).map((row) => JSON.stringify([row.provider, row.ptid])),
    );
    const fresh = batch.filter((t) =>
      t.providerTransactionId === null ||
      !existing.has(JSON.stringify([t.provider, t.providerTransactionId]))
    );
    if (fresh.length === 0) return 0;
    const before = new Map(counters);
    const rows = fresh.map((t) => {
      const [allList, subList] = listsOf(t);
      const seqAll = counters.get(allList)! + 1;
      counters.set(allList, seqAll);
      let seqSub: number | null = null;
      if (subList !== undefined) {
        seqSub = counters.get(subList)! + 1;
        counters.set(subList, seqSub);
      }
      return {
        ...transactionColumns(t),
        result_data: t.resultData === null ? null : sql.json(t.resultData as postgres.JSONValue),
        seq_all: seqAll,
        seq_sub: seqSub,
      };
    });
    // `on conflict do nothing` cannot skip a row here (the pairs were checked under the lock);
    // were it to, the list would get a gap, so the count is verified and the whole call undone.
    const inserted = await tx`
      insert into transactions ${tx(rows)}
      on conflict (provider, provider_transaction_id) do nothing
    `;
    if (inserted.count !== rows.length) {
      throw new Error(`import inserted ${inserted.count} of ${rows.length} new transactions`);
    }
    const values = [...new Set(fresh.flatMap((t) => searchValuesOf(t.user)))].sort();
    await tx`insert into search_values (value) select unnest(${values}::text[]) on conflict (value) do nothing`;
    const entries = fresh.flatMap((t, i) =>
      searchValuesOf(t.user).map((value) => [searchPartOf(t), value, rows[i].seq_all] as const)
    );
    await tx`
      insert into transaction_search (part, value, seq_all)
      select * from unnest(
        ${entries.map((e) => e[0])}::"char"[],
        ${entries.map((e) => e[1])}::text[],
        ${entries.map((e) => e[2])}::bigint[]
      )
    `;
    // Each counter moves once, by the number of its new rows.
    const lists = [...counters.keys()].filter((list) => counters.get(list) !== before.get(list));
    await tx`
      update transaction_counters c set n = c.n + d.added
      from unnest(
        ${lists}::text[],
        ${lists.map((list) => counters.get(list)! - before.get(list)!)}::bigint[]
      ) as d (list, added)
      where c.list = d.list
    `;
    return rows.length;
  });
}

/**
 * The {@link TransactionRepository} on `transactions` and its counters and search tables.
 *
 * @example
 * ```ts
 * const { created } = await pgTransactions(ctx).record(transaction); // false on a repeat
 * ```
 */
export function pgTransactions(ctx: PgContext): TransactionRepository {
  const { sql } = ctx;
  return {
    record: (input, options) => record(ctx, input, options),
    import: (input) => importTransactions(ctx, input),

    async get(id) {
      const [row] = await sql<TransactionRow[]>`select * from transactions where id = ${id}`;
      return row ? toTransaction(row) : null;
    },

    getByProviderId: (provider, providerTransactionId) =>
      getByProviderId(ctx, provider, providerTransactionId),

    async listByDonors(donorIds, max) {
      const { ids, limit } = donorListArgs(donorIds, max);
      if (ids.length === 0) return [];
      const rows = await sql<TransactionRow[]>`
        select * from transactions where donor_id = any(${ids}::text[])
        order by created_at desc, id collate "C" desc limit ${limit}
      `;
      return rows.map(toTransaction);
    },

    async listSuccess(query) {
      return await listPage(ctx, "success", query.isMonthly, query);
    },

    async listErrors(query) {
      return await listPage(ctx, "error", query.isMonthly, query);
    },

    scan: (query) => scan(ctx, query),
    dailyTotals: (range) => dailyTotals(ctx, range),
  };
}
