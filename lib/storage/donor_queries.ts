/**
 * What the donor portal reads, the same on both backends: a donor's transactions across the donor
 * records of one address (`transactions.listByDonors`), checked and ordered by one rule here, so
 * KV and PostgreSQL answer the same rows in the same order.
 *
 * @module
 */

import { batchLimit } from "./queries.ts";
import type { Transaction } from "./transaction_types.ts";

/**
 * The most donor ids one `listByDonors` call takes: an address may have any number of records, and
 * `lib/donors/records.ts` reads them this many at a time.
 */
export const MAX_DONOR_IDS = 100;

/** Checks `listByDonors`' arguments: 1..100 distinct ids, a limit of 1..1,000; answers them deduplicated. */
export function donorListArgs(donorIds: readonly string[], limit: number): { ids: string[]; limit: number } {
  const ids = [...new Set(donorIds)];
  if (ids.length > MAX_DONOR_IDS) throw new RangeError(`at most ${MAX_DONOR_IDS} donor ids: ${ids.length}`);
  return { ids, limit: batchLimit(limit) };
}

/** Newest first: `createdAt` descending, then the id descending (as UTF-8 bytes, as KV orders keys). */
export function newestFirst(a: Transaction, b: Transaction): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
