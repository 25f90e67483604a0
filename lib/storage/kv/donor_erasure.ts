/**
 * Erasing a donor's personal fields on Deno KV (`donors.erase`, issue 15).
 *
 * | key rewritten                         | with                              |
 * |---------------------------------------|-----------------------------------|
 * | `["transactions", id]`                | the transaction, `user` erased    |
 * | `["transactions_list", list, seq]`   | the same, in each of its two lists |
 * | `["donors", id]`                      | the donor, erased (`erasedDonor`) |
 * | `["donors_by_email", email, id]`      | deleted                           |
 * | `["receipts", id]`                    | the receipt, `email` emptied      |
 * | `["receipts_by_email", email, …, id]` | deleted                           |
 *
 * A donor may have more transactions than one atomic operation holds, so the transactions go
 * first, a few per commit (each checked against the entries as read), then the donor record and
 * its email index in one commit: the record is the mark that the erasure is done, and a repeat
 * after a failure does what is left. The transactions are read again after the donor's commit, so
 * one recorded meanwhile (a charge that was in flight) is erased too.
 *
 * The receipts stay as issued (legal copies) but lose the email address they were filed under,
 * which they do not print.
 *
 * The list copies are found by time: each list is in the order recorded, which is time order
 * (the contract `dailyTotals` relies on), so a binary search finds where the transaction's time
 * lies and a short read around it finds its copy: a few dozen reads, not a scan of the list. An
 * import of old transactions after newer ones breaks that order: then the copies not found there
 * are looked for in one read of the whole list per commit (slow, correct).
 *
 * @module
 */
import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { donorEmailKey, DONORS } from "./donors.ts";
import { RECEIPTS, RECEIPTS_BY_DONOR, RECEIPTS_BY_EMAIL } from "./receipts.ts";
import { TRANSACTIONS, TRANSACTIONS_BY_DONOR } from "./transactions.ts";
import { TRANSACTIONS_COUNT, TRANSACTIONS_LIST } from "./transaction_lists.ts";
import { listsOf, type TransactionList } from "@/lib/storage/queries.ts";
import { ERASED_USER, erasedDonor, isErasedUser } from "@/lib/storage/records.ts";
import type { Donor, Receipt, Transaction } from "@/lib/storage/types.ts";

/** A copy is looked for this long either side of its transaction's time before the whole list is read. */
const SLACK_MS = 10 * 60_000;
/** Transactions erased per commit (each: its record and two list copies). */
const PER_COMMIT = 20;

/** The sequence number of `tx`'s copy in `list` found near its time, or null when not there. */
async function nearSeq(kv: Deno.Kv, list: TransactionList, total: number, tx: Transaction) {
  const from = new Date(Date.parse(tx.createdAt) - SLACK_MS).toISOString();
  const to = new Date(Date.parse(tx.createdAt) + SLACK_MS).toISOString();
  // The first sequence number whose copy is not older than `from`.
  let low = 1;
  let high = total + 1;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    const copy = (await kv.get<Transaction>([TRANSACTIONS_LIST, list, mid])).value;
    if (copy !== null && copy.createdAt < from) low = mid + 1;
    else high = mid;
  }
  const near = { start: [TRANSACTIONS_LIST, list, low], end: [TRANSACTIONS_LIST, list, total + 1] };
  for await (const entry of kv.list<Transaction>(near, { batchSize: 50 })) {
    if (entry.value.id === tx.id) return entry.key[2] as number;
    if (entry.value.createdAt > to) break;
  }
  return null;
}

/**
 * The keys of the copies of `txs` in `list`: each looked for near its time, and those not found
 * there in one read of the whole list (however many they are).
 */
async function copyKeys(kv: Deno.Kv, list: TransactionList, txs: Transaction[]): Promise<Deno.KvKey[]> {
  const total = (await kv.get<number>([TRANSACTIONS_COUNT, list])).value ?? 0;
  const keys: Deno.KvKey[] = [];
  const missing = new Set<string>();
  for (const tx of txs) {
    const seq = await nearSeq(kv, list, total, tx);
    if (seq === null) missing.add(tx.id);
    else keys.push([TRANSACTIONS_LIST, list, seq]);
  }
  if (missing.size === 0) return keys;
  for await (const entry of kv.list<Transaction>({ prefix: [TRANSACTIONS_LIST, list] }, { batchSize: 500 })) {
    if (missing.delete(entry.value.id)) keys.push(entry.key);
    if (missing.size === 0) break;
  }
  return keys;
}

/** The donor's transactions whose donor fields are not erased yet. */
async function pending(ctx: KvContext, donorId: string): Promise<Transaction[]> {
  return await retryWhileLocked(async () => {
    const ids: string[] = [];
    for await (const e of ctx.kv.list<string>({ prefix: [TRANSACTIONS_BY_DONOR, donorId] })) {
      ids.push(e.value);
    }
    const entries = await ctx.getAll<Transaction>(ids.map((id) => [TRANSACTIONS, id]));
    return entries.flatMap((e) => e.value !== null && !isErasedUser(e.value.user) ? [e.value] : []);
  });
}

/** Erases the donor fields of `txs` (and of their list copies), a few per commit. */
async function eraseTransactions(ctx: KvContext, txs: Transaction[]): Promise<void> {
  const { kv } = ctx;
  for (let i = 0; i < txs.length; i += PER_COMMIT) {
    const chunk = txs.slice(i, i + PER_COMMIT);
    const keys: Deno.KvKey[] = chunk.map((tx) => [TRANSACTIONS, tx.id]);
    const byList = new Map<TransactionList, Transaction[]>();
    for (const tx of chunk) for (const list of listsOf(tx)) byList.set(list, [...byList.get(list) ?? [], tx]);
    for (const [list, txs] of byList) keys.push(...await retryWhileLocked(() => copyKeys(kv, list, txs)));
    await untilCommitted(async () => {
      const entries = await ctx.getAll<Transaction>(keys);
      const ok = await commit(() => {
        const op = kv.atomic();
        for (const entry of entries) {
          // Checked as read: a copy is never rewritten by anything else, a record only by this.
          if (entry.value !== null) op.check(entry).set(entry.key, { ...entry.value, user: ERASED_USER });
        }
        return op;
      });
      return ok ? true : RETRY;
    });
  }
}

/**
 * Drops the email address the donor's receipts are filed under (it is not printed on them; the
 * rest of a receipt stays as issued), with its index key, a few receipts per commit.
 */
async function forgetReceiptEmails(ctx: KvContext, donorId: string): Promise<void> {
  const { kv } = ctx;
  const entries = await retryWhileLocked(async () => {
    const keys: Deno.KvKey[] = [];
    for await (const e of kv.list<string>({ prefix: [RECEIPTS_BY_DONOR, donorId] })) {
      keys.push([RECEIPTS, e.value]);
    }
    return keys;
  });
  for (let i = 0; i < entries.length; i += PER_COMMIT) {
    const keys = entries.slice(i, i + PER_COMMIT);
    await untilCommitted(async () => {
      const read = (await ctx.getAll<Receipt>(keys)).filter((e) => e.value !== null && e.value.email !== "");
      if (read.length === 0) return true;
      const ok = await commit(() => {
        const op = kv.atomic();
        for (const { key, value: r, versionstamp } of read) {
          op.check({ key, versionstamp }).set(key, { ...r!, email: "" })
            .delete([RECEIPTS_BY_EMAIL, r!.email, r!.issuedAt, r!.id]);
        }
        return op;
      });
      return ok ? true : RETRY;
    });
  }
}

/**
 * `donors.erase` on KV: the transactions, then the donor record and its email index in one commit,
 * then the transactions recorded meanwhile.
 */
export async function eraseKvDonor(ctx: KvContext, id: string, at: string): Promise<Donor | null> {
  const { kv } = ctx;
  const key = [DONORS, id];
  const first = (await retryWhileLocked(() => kv.get<Donor>(key))).value;
  if (first === null) return null;
  await eraseTransactions(ctx, await pending(ctx, id));
  await forgetReceiptEmails(ctx, id);
  const donor = await untilCommitted(async () => {
    const entry = await retryWhileLocked(() => kv.get<Donor>(key));
    if (entry.value === null) return null;
    const current = { ...entry.value, israeliId: entry.value.israeliId ?? null };
    if (current.erasedAt !== undefined) return current;
    const erased = erasedDonor(current, at);
    const ok = await commit(() => kv.atomic().check(entry).set(key, erased).delete(donorEmailKey(current)));
    return ok ? erased : RETRY;
  });
  await eraseTransactions(ctx, await pending(ctx, id));
  await forgetReceiptEmails(ctx, id);
  return donor;
}
