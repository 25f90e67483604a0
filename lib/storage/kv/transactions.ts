/**
 * Transactions on Deno KV: recording them once, importing many, and reading one back. The lists
 * they join, and everything that reads them, are in `transaction_lists.ts`.
 *
 * | key                                            | value                            | written by     |
 * |------------------------------------------------|----------------------------------|----------------|
 * | `["transactions", id]`                         | Transaction                      | record, import |
 * | `["transactions_by_provider", provider, ptid]` | transaction id (idempotency key) | record, import |
 * | `["transactions_by_donor", donorId, at, id]`    | transaction id                   | record, import |
 * | `["transactions_by_time", createdAt, id]`       | transaction id                   | record, import |
 *
 * plus, in the same commit, the `["transactions_count", list]` counters and
 * `["transactions_list", list, seq]` copies of `transaction_lists.ts`, the messages `record` is
 * given (`outbox.ts`: their keys are read with the transaction's, so no extra read) and the
 * membership change it is given (`memberships.ts`: its key read with the others, applied only to a
 * new transaction).
 *
 * Atomicity: `record` checks the idempotency key, the id and the list counters it increments.
 * `import` reads all six list counters, then the idempotency and id keys of its transactions, and
 * commits as many new ones as one atomic operation holds (see `KV_LIMITS` in `atomic.ts`: about
 * 250 small transactions) with a check of all six counters. Every `record` and every import
 * commit changes a counter, so none slips in between; a lost race re-reads and plans again. The
 * writes are exactly `record`'s, so the lists, sequences and idempotency keys cannot tell them
 * apart. Both run one at a time per handle (`KvContext.oneAtATime`), as they all move the same
 * counters.
 *
 * `transactions_by_donor` (issue 15, the donor portal: `listByDonors`) is read a donor's range at a
 * time, newest first; stores written before it get it from the `donor-portal-indexes` data
 * migration (`migrations.ts`).
 *
 * `transactions_by_time` (issue 16, the accountant's reports: `reports.ts`) is read a period's
 * range at a time, so a month's figures cost work in proportion to that month's transactions
 * whatever order they were recorded in (the lists are in the order recorded); stores written
 * before it get it from the `report-indexes` data migration (`migrations.ts`).
 *
 * Values stay under KV's 64 KiB: transactions are refused above 60 KB (`canonicalTransaction`).
 *
 * @module
 */

import { commit, ImportBudget, loadSerialize, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { kvTransactionLists, TRANSACTIONS_COUNT, TRANSACTIONS_LIST } from "./transaction_lists.ts";
import { importBatch, listsOf, TRANSACTION_LISTS } from "@/lib/storage/queries.ts";
import { canonicalMessages } from "@/lib/storage/outbox_records.ts";
import { canonicalTransaction } from "@/lib/storage/records.ts";
import { donorListArgs, newestFirst } from "@/lib/storage/donor_queries.ts";
import { MAX_MESSAGES_PER_CAUSE, type WithMessages } from "@/lib/storage/outbox_types.ts";
import type { Transaction, TransactionRepository } from "@/lib/storage/types.ts";
import { addMessages, messageKeys } from "./outbox.ts";
import { membershipKey, planMembership } from "./memberships.ts";
import type { Membership, WithMembership } from "@/lib/storage/membership_types.ts";

/** The first key part of every transaction, by id. */
export const TRANSACTIONS = "transactions";
/** The idempotency key: `(provider, providerTransactionId)` to transaction id. */
const TRANSACTIONS_BY_PROVIDER = "transactions_by_provider";

/** The index of transactions by donor, newest last within a donor. */
export const TRANSACTIONS_BY_DONOR = "transactions_by_donor";

/** The `["transactions_by_donor", donorId, createdAt, id]` key of a transaction. */
export function donorIndexKey(tx: Transaction): Deno.KvKey {
  return [TRANSACTIONS_BY_DONOR, tx.donorId, tx.createdAt, tx.id];
}

/** `transactions.listByDonors`: each donor's index range, newest first, merged. */
async function listByDonors(
  ctx: KvContext,
  donorIds: readonly string[],
  max: number,
): Promise<Transaction[]> {
  const { ids, limit } = donorListArgs(donorIds, max);
  const perDonor = await Promise.all(ids.map((donorId) =>
    retryWhileLocked(async () => {
      const found: string[] = [];
      const selector = { prefix: [TRANSACTIONS_BY_DONOR, donorId] };
      for await (const e of ctx.kv.list<string>(selector, { limit, reverse: true })) found.push(e.value);
      return found;
    })
  ));
  const txs = await Promise.all(perDonor.flat().map((id) => getTransaction(ctx, id)));
  return txs.filter((tx): tx is Transaction => tx !== null).sort(newestFirst).slice(0, limit);
}

/** The index of transactions by creation time (the reports' periods). */
export const TRANSACTIONS_BY_TIME = "transactions_by_time";

/** The `["transactions_by_time", createdAt, id]` key of a transaction. */
export function timeIndexKey(tx: Transaction): Deno.KvKey {
  return [TRANSACTIONS_BY_TIME, tx.createdAt, tx.id];
}

/** How many transactions `transactions.import` looks up at once (a few parallel getMany calls). */
const IMPORT_LOOKAHEAD = 100;

const getTransaction = async ({ kv }: KvContext, id: string) =>
  (await retryWhileLocked(() => kv.get<Transaction>([TRANSACTIONS, id]))).value;

/**
 * `transactions.record`: the transaction, its idempotency key, both list entries, its messages and
 * its membership change (read with the rest, written only when the transaction is new), in one
 * commit.
 */
async function record(
  ctx: KvContext,
  input: Transaction,
  options: WithMessages & WithMembership = {},
): Promise<{ created: boolean; transaction: Transaction }> {
  const { kv } = ctx;
  const tx = canonicalTransaction(input);
  const messages = canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE);
  const lists = listsOf(tx);
  const idKey = [TRANSACTIONS, tx.id];
  const providerKey = tx.providerTransactionId === null
    ? null
    : [TRANSACTIONS_BY_PROVIDER, tx.provider, tx.providerTransactionId];
  const counterKeys = lists.map((list) => [TRANSACTIONS_COUNT, list]);
  const change = options.membership;
  return await ctx.oneAtATime(() =>
    untilCommitted(async () => {
      // One consistent read of everything the commit checks.
      const [byId, ...rest] = await retryWhileLocked(() =>
        kv.getMany<unknown[]>([
          idKey,
          ...counterKeys,
          ...(providerKey ? [providerKey] : []),
          ...messageKeys(messages),
          ...(change ? [membershipKey(change.email)] : []),
        ])
      );
      const counters = rest.slice(0, lists.length) as Deno.KvEntryMaybe<number>[];
      const byProvider = providerKey ? rest[lists.length] as Deno.KvEntryMaybe<string> : null;
      const messagesAt = lists.length + (providerKey ? 1 : 0);
      const messageEntries = rest.slice(messagesAt, messagesAt + messages.length);
      if (byProvider?.value != null) {
        const existing = await getTransaction(ctx, byProvider.value);
        if (existing === null) throw new Error(`transaction ${byProvider.value} is indexed but missing`);
        return { created: false, transaction: existing };
      }
      if (byId.value !== null) throw new Error(`a transaction with the id ${tx.id} exists`);
      const member = change
        ? planMembership(rest.at(-1) as Deno.KvEntryMaybe<Membership>, change, tx.createdAt, {
          mayEnd: false,
        })
        : null;
      const ok = await commit(() => {
        const op = kv.atomic().check(byId).set(idKey, tx).set(donorIndexKey(tx), tx.id)
          .set(timeIndexKey(tx), tx.id);
        if (byProvider && providerKey) op.check(byProvider).set(providerKey, tx.id);
        counters.forEach((counter, i) => {
          const seq = (counter.value ?? 0) + 1;
          op.check(counter).set(counter.key, seq).set([TRANSACTIONS_LIST, lists[i], seq], tx);
        });
        addMessages(op, messageEntries, messages, tx.createdAt);
        return member ? member.add(op) : op;
      });
      return ok ? { created: true, transaction: tx } : RETRY;
    })
  );
}

/** `transactions.import`: as many commits as the batch needs, each planned by {@link importChunk}. */
async function importAll(ctx: KvContext, input: Transaction[]): Promise<number> {
  const batch = importBatch(input);
  let created = 0;
  // Each round commits the longest run of the remaining transactions that fits one atomic
  // operation (see importChunk); a lost race re-reads and plans that run again.
  for (let done = 0; done < batch.length;) {
    const { consumed, added } = await ctx.oneAtATime(() =>
      untilCommitted(() => importChunk(ctx, batch, done))
    );
    done += consumed;
    created += added;
  }
  return created;
}

/**
 * One commit of `transactions.import`: from `batch[start]` on, the transactions not recorded yet,
 * as many as fit one atomic operation ({@link ImportBudget}), written exactly as `record` writes
 * them (record, idempotency key, list copies, counters). Answers how many of `batch` it decided
 * (recorded or skipped as duplicates) and how many it recorded, or RETRY when a concurrent write
 * got in first.
 *
 * The commit checks all six list counters as read at the start. Every `record` and every
 * import commit changes at least one of them, so none can slip between these reads and this
 * commit: the duplicates found are all there are, and the sequence numbers stay dense.
 */
async function importChunk(
  ctx: KvContext,
  batch: Transaction[],
  start: number,
): Promise<{ consumed: number; added: number } | typeof RETRY> {
  const { kv } = ctx;
  const counters = await retryWhileLocked(() =>
    kv.getMany<number[]>(TRANSACTION_LISTS.map((list) => [TRANSACTIONS_COUNT, list]))
  );
  const last = new Map(TRANSACTION_LISTS.map((list, i) => [list, counters[i].value ?? 0]));
  await loadSerialize();
  const budget = new ImportBudget(counters.map((entry) => entry.key));
  const sets: [Deno.KvKey, unknown][] = [];
  let consumed = 0;
  let added = 0;
  // The remaining transactions are looked up a window at a time, after the counters were read.
  scan: for (let from = start; from < batch.length; from += IMPORT_LOOKAHEAD) {
    const window = batch.slice(from, from + IMPORT_LOOKAHEAD);
    const found = await lookUp(ctx, window);
    for (const [i, tx] of window.entries()) {
      if (found[i].byProvider) {
        consumed++; // recorded before: nothing to write, as record() answers `created: false`
        continue;
      }
      if (found[i].byId) throw new Error(`a transaction with the id ${tx.id} exists`);
      const lists = listsOf(tx);
      const seqs = lists.map((list) => last.get(list)! + 1);
      const writes: [Deno.KvKey, unknown][] = [
        [[TRANSACTIONS, tx.id], tx],
        [donorIndexKey(tx), tx.id],
        [timeIndexKey(tx), tx.id],
      ];
      if (tx.providerTransactionId !== null) {
        writes.push([[TRANSACTIONS_BY_PROVIDER, tx.provider, tx.providerTransactionId], tx.id]);
      }
      lists.forEach((list, j) => writes.push([[TRANSACTIONS_LIST, list, seqs[j]], tx]));
      if (!budget.take(writes)) {
        if (added === 0) throw new Error(`transaction ${tx.id} does not fit one Deno KV atomic operation`);
        break scan;
      }
      sets.push(...writes);
      lists.forEach((list, j) => last.set(list, seqs[j]));
      consumed++;
      added++;
    }
  }
  if (added === 0) return { consumed, added };
  TRANSACTION_LISTS.forEach((list, i) => {
    if (last.get(list) !== (counters[i].value ?? 0)) sets.push([counters[i].key, last.get(list)!]);
  });
  const ok = await commit(() => {
    const op = kv.atomic().check(...counters);
    for (const [key, value] of sets) op.set(key, value);
    return op;
  });
  return ok ? { consumed, added } : RETRY;
}

/** Whether each transaction's id and `(provider, providerTransactionId)` keys exist. */
async function lookUp(ctx: KvContext, txs: Transaction[]): Promise<{ byId: boolean; byProvider: boolean }[]> {
  const keys: Deno.KvKey[] = [];
  const at = txs.map((tx) => {
    const byId = keys.push([TRANSACTIONS, tx.id]) - 1;
    const byProvider = tx.providerTransactionId === null
      ? -1
      : keys.push([TRANSACTIONS_BY_PROVIDER, tx.provider, tx.providerTransactionId]) - 1;
    return { byId, byProvider };
  });
  const entries = await ctx.getAll<unknown>(keys);
  return at.map(({ byId, byProvider }) => ({
    byId: entries[byId].value !== null,
    byProvider: byProvider >= 0 && entries[byProvider].value !== null,
  }));
}

/** The {@link TransactionRepository} of the store on `ctx`. */
export function kvTransactions(ctx: KvContext): TransactionRepository {
  const { kv } = ctx;
  return {
    record: (tx, options) => record(ctx, tx, options),
    import: (txs) => importAll(ctx, txs),
    get: (id) => getTransaction(ctx, id),
    listByDonors: (donorIds, limit) => listByDonors(ctx, donorIds, limit),
    async getByProviderId(provider, providerTransactionId) {
      const id =
        (await retryWhileLocked(() =>
          kv.get<string>([TRANSACTIONS_BY_PROVIDER, provider, providerTransactionId])
        )).value;
      return id === null ? null : await getTransaction(ctx, id);
    },
    ...kvTransactionLists(ctx),
  };
}
