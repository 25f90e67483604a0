/**
 * Deleting an unused donor record on Deno KV (`donors.deleteUnused`, issue 23): what `POST /api/user`
 * recycles under an address with many records.
 *
 * | key read (one entry is enough)          | means                         |
 * |-----------------------------------------|-------------------------------|
 * | `["payments_by_donor", id, …]`          | a payment was started with it |
 * | `["transactions_by_donor", id, …]`      | a gift or declined attempt    |
 * | `["subscriptions_by_donor", id, …]`     | a monthly gift                |
 * | `["receipts_by_donor", id, …]`          | a receipt                     |
 * | `["outbox_by_donor", id, …]`            | a message to it               |
 *
 * | key deleted                        | checked                      |
 * |------------------------------------|------------------------------|
 * | `["donors", id]`                   | as read (unchanged meanwhile) |
 * | `["donors_by_email", email, id]`   |                              |
 *
 * KV checks keys, not ranges, so an index entry written between the reads and the commit is not
 * seen: a payment started with the record's id at that moment, by the one who holds it, an hour or
 * more after it was made (see `DonorRepository.deleteUnused`).
 *
 * @module
 */
import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { donorEmailKey, DONORS } from "./donors.ts";
import { OUTBOX_BY_DONOR } from "./outbox.ts";
import { PAYMENTS_BY_DONOR } from "./payments.ts";
import { RECEIPTS_BY_DONOR } from "./receipts.ts";
import { SUBSCRIPTIONS_BY_DONOR } from "./subscriptions.ts";
import { TRANSACTIONS_BY_DONOR } from "./transactions.ts";
import { isoInstant } from "@/lib/storage/records.ts";
import type { Donor } from "@/lib/storage/types.ts";

/** The indexes by donor whose any entry means the record is used. */
const NAMED_BY = [
  PAYMENTS_BY_DONOR,
  TRANSACTIONS_BY_DONOR,
  SUBSCRIPTIONS_BY_DONOR,
  RECEIPTS_BY_DONOR,
  OUTBOX_BY_DONOR,
];

/** Whether anything names donor `id` in one of {@link NAMED_BY}. */
async function named({ kv }: KvContext, id: string): Promise<boolean> {
  const found = await Promise.all(NAMED_BY.map(async (index) => {
    for await (const _ of kv.list({ prefix: [index, id] }, { limit: 1 })) return true;
    return false;
  }));
  return found.includes(true);
}

/** `donors.deleteUnused` on KV. */
export async function deleteUnusedKvDonor(
  ctx: KvContext,
  id: string,
  createdBefore: string,
): Promise<boolean> {
  const before = isoInstant(createdBefore, "createdBefore");
  return await untilCommitted(async () => {
    const entry = await retryWhileLocked(() => ctx.kv.get<Donor>([DONORS, id]));
    const donor = entry.value;
    if (donor === null || donor.erasedAt !== undefined || donor.createdAt >= before) return false;
    if (await retryWhileLocked(() => named(ctx, id))) return false;
    const ok = await commit(() =>
      ctx.kv.atomic().check(entry).delete(entry.key).delete(donorEmailKey(donor))
    );
    return ok ? true : RETRY;
  });
}
