/**
 * Receipts on Deno KV (issue 14): issued once per transaction, numbered gaplessly per series.
 *
 * | key                                          | value   | written by               |
 * |----------------------------------------------|---------|--------------------------|
 * | `["receipts", id]`                           | Receipt | issue, setReportNumber, donors.erase (email) |
 * | `["receipts_by_transaction", transactionId]` | id      | issue (`byTransactions` reads many) |
 * | `["receipts_by_donor", donorId, issuedAt, id]` | id    | issue                    |
 * | `["receipts_by_email", email, issuedAt, id]` | id      | issue; donors.erase deletes it |
 * | `["receipt_counters", series]`               | number  | issue (the last number)  |
 *
 * `issue` reads the transaction's index key and the series' counter, and commits the receipt, its
 * three index keys and the counter plus one in one atomic operation that checks both as read (the
 * index key as absent): of two issues racing for one number, or for one transaction, exactly one
 * commits; the other re-reads and takes the next number, or finds the receipt. So a number is
 * written only with its receipt: none is skipped or taken twice. Issues of one handle run one at a
 * time (`oneAtATime`, in a queue of their own: a receipt's number never waits behind the payments'
 * records, issue 24), as they all move one counter; other handles on the same file still race, and
 * the checks settle that. The donor and email indexes carry the issue time, so a list reads them
 * newest first with `reverse`.
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { normalizeEmail } from "@/lib/storage/records.ts";
import {
  canonicalNewReceipt,
  checkReportNumber,
  newestReceiptFirst,
  receiptListLimit,
  receiptNumber,
  receiptTransactionIds,
} from "@/lib/storage/receipt_records.ts";
import type { Receipt, ReceiptRepository } from "@/lib/storage/receipt_types.ts";

const RECEIPTS = "receipts";
const BY_TRANSACTION = "receipts_by_transaction";
const BY_DONOR = "receipts_by_donor";
const BY_EMAIL = "receipts_by_email";
const COUNTERS = "receipt_counters";

/** The receipts' keys a donor's erasure (`donor_erasure.ts`) rewrites. */
export { BY_DONOR as RECEIPTS_BY_DONOR, BY_EMAIL as RECEIPTS_BY_EMAIL, RECEIPTS };

/** The {@link ReceiptRepository} of the store on `ctx`. */
export function kvReceipts(ctx: KvContext): ReceiptRepository {
  const { kv } = ctx;
  const read = (id: string) => retryWhileLocked(() => kv.get<Receipt>([RECEIPTS, id]));

  /** The receipts an index prefix names, newest first, at most `limit`. */
  const listIndex = async (prefix: Deno.KvKey, limit: number): Promise<Receipt[]> => {
    const ids = await retryWhileLocked(async () => {
      const out: string[] = [];
      for await (const e of kv.list<string>({ prefix }, { reverse: true, limit })) out.push(e.value);
      return out;
    });
    const entries = await ctx.getAll<Receipt>(ids.map((id) => [RECEIPTS, id]));
    return entries.flatMap((e) => (e.value ? [e.value] : []));
  };

  return {
    async issue(input) {
      const r = canonicalNewReceipt(input);
      return await ctx.oneAtATime(() =>
        untilCommitted(async () => {
          const [byTx, counter] = await ctx.getAll<string | number>([
            [BY_TRANSACTION, r.transactionId],
            [COUNTERS, r.series],
          ]);
          if (byTx.value !== null) {
            const existing = (await read(byTx.value as string)).value;
            if (existing) return { created: false, receipt: existing };
          }
          const sequence = ((counter.value as number | null) ?? 0) + 1;
          const receipt: Receipt = {
            ...r,
            sequence,
            number: receiptNumber(r.series, sequence),
            reportNumber: null,
          };
          const ok = await commit(() =>
            kv.atomic()
              .check(byTx, counter, { key: [RECEIPTS, r.id], versionstamp: null })
              .set([RECEIPTS, r.id], receipt)
              .set([BY_TRANSACTION, r.transactionId], r.id)
              .set([BY_DONOR, r.donorId, r.issuedAt, r.id], r.id)
              .set([BY_EMAIL, r.email, r.issuedAt, r.id], r.id)
              .set([COUNTERS, r.series], sequence)
          );
          if (ok) return { created: true, receipt };
          // The id is new per call: a receipt under it that is not this transaction's is a caller's bug.
          const clash = (await read(r.id)).value;
          if (clash && clash.transactionId !== r.transactionId) {
            throw new RangeError("a receipt with this id exists");
          }
          return RETRY;
        }), "receipts");
    },

    async get(id) {
      return (await read(id)).value;
    },

    async byTransaction(transactionId) {
      const id = await retryWhileLocked(() => kv.get<string>([BY_TRANSACTION, transactionId]));
      return id.value === null ? null : (await read(id.value)).value;
    },

    async byTransactions(transactionIds) {
      const ids = receiptTransactionIds(transactionIds);
      const index = await ctx.getAll<string>(ids.map((id) => [BY_TRANSACTION, id]));
      const named = index.flatMap((e) => (e.value === null ? [] : [e.value]));
      const entries = await ctx.getAll<Receipt>(named.map((id) => [RECEIPTS, id]));
      return new Map(entries.flatMap((e) => (e.value ? [[e.value.transactionId, e.value]] : [])));
    },

    async listByDonors(donorIds, limit) {
      const max = receiptListLimit(limit);
      const lists = await Promise.all([...new Set(donorIds)].map((d) => listIndex([BY_DONOR, d], max)));
      return lists.flat().sort(newestReceiptFirst).slice(0, max);
    },

    async listByEmail(email, limit) {
      const list = await listIndex([BY_EMAIL, normalizeEmail(email)], receiptListLimit(limit));
      return list.sort(newestReceiptFirst);
    },

    async setReportNumber(id, reportNumber) {
      checkReportNumber(reportNumber);
      return await untilCommitted(async () => {
        const entry = await read(id);
        if (entry.value === null) return null;
        if (entry.value.reportNumber === reportNumber) return entry.value;
        if (entry.value.reportNumber !== null) {
          throw new RangeError(
            `receipt ${entry.value.number} already has report number ${entry.value.reportNumber}`,
          );
        }
        const receipt: Receipt = { ...entry.value, reportNumber };
        return (await commit(() => kv.atomic().check(entry).set([RECEIPTS, id], receipt))) ? receipt : RETRY;
      });
    },
  };
}
