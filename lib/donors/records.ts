/**
 * Every donor record of one address (issue 23). Anyone may create donor records under any address
 * (`POST /api/user` needs no payment), so nothing may assume an address has few, nor that its first
 * ids are the ones that matter:
 * - whoever lists an address's records pages through the whole email index
 *   ({@link donorIdPages}, {@link allDonorIds}) and reads the per-donor lists, which take at most
 *   `MAX_DONOR_IDS` ids a call, chunk by chunk, merged in the list's order ({@link listAcross});
 * - whoever acts on one record for a signed-in address checks that record's own email
 *   ({@link isDonorOf}), never whether its id is among some of the address's ids.
 *
 * The portal, the data export, the year's receipts, erasure and the back office's donor page read
 * through here. How many records an address can gather is bounded by `POST /api/user`'s recycling
 * of unused ones (`lib/donors/donors.ts`) and the creation rate limits, not by this module.
 *
 * @module
 */
import { MAX_DONOR_IDS, newestFirst } from "@/lib/storage/donor_queries.ts";
import { newestReceiptFirst } from "@/lib/storage/receipt_records.ts";
import { normalizeEmail } from "@/lib/storage/records.ts";
import type { Donor, Receipt, Store, Subscription, Transaction } from "@/lib/storage/types.ts";

/** Ids read per page of the email index. */
export const ID_PAGE = 500;
/** Storage calls made at once for one address's records (the pool is shared with every request). */
const AT_ONCE = 8;

/**
 * The ids of every donor record of `email`, a page at a time, in id order: what is created meanwhile
 * after the cursor is read too.
 *
 * @example
 * ```ts
 * for await (const ids of donorIdPages(store, "ada@example.org")) console.log(ids.length);
 * ```
 */
export async function* donorIdPages(
  store: Pick<Store, "donors">,
  email: string,
  pageSize = ID_PAGE,
): AsyncGenerator<string[]> {
  let after: string | undefined;
  for (;;) {
    const page = await store.donors.idsByEmail(email, pageSize, after);
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = page.at(-1);
  }
}

/**
 * The ids of every donor record of `email`, in id order.
 *
 * @example
 * ```ts
 * const ids = await allDonorIds(store, session.email);
 * ```
 */
export async function allDonorIds(store: Pick<Store, "donors">, email: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const page of donorIdPages(store, email)) ids.push(...page);
  return ids;
}

/**
 * `fn` of every item, at most {@link AT_ONCE} at a time, answers in the items' order.
 *
 * @example
 * ```ts
 * const donors = await mapFew(ids, (id) => store.donors.get(id));
 * ```
 */
export async function mapFew<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, items.length) }, worker));
  return out;
}

/**
 * The first `limit` items in `order` of a per-donor list over all `ids`: `list` is called once per
 * chunk of at most `MAX_DONOR_IDS` ids with the same `limit`, and the answers merged. Each chunk's
 * own first `limit` are enough: an item past them has `limit` items before it already.
 *
 * @example
 * ```ts
 * const txs = await listAcross(ids, 500, newestFirst, (chunk) => store.transactions.listByDonors(chunk, 500));
 * ```
 */
export async function listAcross<T>(
  ids: readonly string[],
  limit: number,
  order: (a: T, b: T) => number,
  list: (chunk: string[]) => Promise<T[]>,
): Promise<T[]> {
  const chunks: string[][] = [];
  for (let i = 0; i < ids.length; i += MAX_DONOR_IDS) chunks.push(ids.slice(i, i + MAX_DONOR_IDS));
  if (chunks.length === 1) return await list(chunks[0]);
  return (await mapFew(chunks, list)).flat().sort(order).slice(0, limit);
}

/** What the pages of one address read of all its donor records. */
export interface AddressRecords {
  /** The records' ids, in id order. */
  ids: string[];
  /** The records (with `withDonors`; else empty), in id order. */
  donors: Donor[];
  /** Their gifts and declined attempts, newest first, at most the `limit` asked for. */
  transactions: Transaction[];
  /** Their receipts, newest first, at most the `limit` asked for. */
  receipts: Receipt[];
  /** Their monthly gifts, every one. */
  subscriptions: Subscription[];
}

/**
 * Every donor record of `email` and what hangs on them: the newest `limit` gifts and receipts, every
 * monthly gift, and (`withDonors`) the records themselves. The account page, the data export and the
 * back office's donor page read through here.
 *
 * @example
 * ```ts
 * const { transactions, subscriptions } = await addressRecords(store, session.email, 500);
 * ```
 */
export async function addressRecords(
  store: Pick<Store, "donors" | "transactions" | "receipts" | "subscriptions">,
  email: string,
  limit: number,
  withDonors = false,
): Promise<AddressRecords> {
  return await recordsOf(store, await allDonorIds(store, email), limit, withDonors);
}

/**
 * What {@link addressRecords} reads, for these donor records only (e.g. the one a manage link's
 * session reaches, `lib/donor_portal/access.ts`).
 *
 * @example
 * ```ts
 * const { transactions } = await recordsOf(store, [session.donorId], 500);
 * ```
 */
export async function recordsOf(
  store: Pick<Store, "donors" | "transactions" | "receipts" | "subscriptions">,
  ids: string[],
  limit: number,
  withDonors = false,
): Promise<AddressRecords> {
  const [donors, transactions, receipts, subscriptions] = await Promise.all([
    mapFew(withDonors ? ids : [], (id) => store.donors.get(id)),
    listAcross(ids, limit, newestFirst, (chunk) => store.transactions.listByDonors(chunk, limit)),
    listAcross(ids, limit, newestReceiptFirst, (chunk) => store.receipts.listByDonors(chunk, limit)),
    mapFew(ids, (id) => store.subscriptions.listByDonor(id)),
  ]);
  return {
    ids,
    donors: donors.filter((d): d is Donor => d !== null),
    transactions,
    receipts,
    subscriptions: subscriptions.flat(),
  };
}

/**
 * Whether donor record `donorId` is one of the address `email`'s: the record's own email, normalized
 * as stored, compared with the address's. An unknown or erased record is nobody's.
 *
 * @example
 * ```ts
 * if (!await isDonorOf(store, subscription.donorId, session.email)) throw new NoSuchGiftError();
 * ```
 */
export async function isDonorOf(
  store: Pick<Store, "donors">,
  donorId: string,
  email: string,
): Promise<boolean> {
  const donor = await store.donors.get(donorId);
  if (donor === null || donor.erasedAt !== undefined || donor.email === "") return false;
  return normalizeEmail(donor.email) === normalizeEmail(email);
}
