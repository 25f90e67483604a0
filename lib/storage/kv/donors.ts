/**
 * Donors on Deno KV.
 *
 * | key              | value | written by     |
 * |------------------|-------|----------------|
 * | `["donors", id]` | Donor | create, update |
 * | `["donors_by_email", email, id]` | id | create |
 *
 * The email index (issue 15: the donor portal finds every donor record of one address) is written
 * with the donor; an email never changes, so `update` leaves it. Donors stored before it existed get
 * it from the `donor-email-index` data migration (`migrations.ts`).
 * `create` commits only while the id is absent; `update` rewrites the record under a check of the
 * versionstamp it read, so two updates at once both apply, one after the other.
 *
 * `idsByEmail` pages through the email index after a cursor (issue 23: an address may have any
 * number of records, and whoever lists them reads every one).
 *
 * `donors.erase` (issue 15) is in `donor_erasure.ts`: it rewrites the donor's transactions too;
 * `donors.deleteUnused` (issue 23) in `donor_recycling.ts`: it reads other concepts' indexes.
 *
 * `israeliId` (issue 14) is a field of the record; a record written before it existed has none, and
 * is read with `null` there (no data migration: a missing field and `null` mean the same).
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { batchLimit } from "@/lib/storage/queries.ts";
import { canonicalDonor, isoInstantOrNull, normalizeEmail } from "@/lib/storage/records.ts";
import type { Donor, DonorRepository } from "@/lib/storage/types.ts";

/** The first key part of every donor. */
export const DONORS = "donors";
/** The index of donors by email address. */
const DONORS_BY_EMAIL = "donors_by_email";

/** The `["donors_by_email", email, id]` key of a donor. */
export function donorEmailKey(donor: Donor): Deno.KvKey {
  return [DONORS_BY_EMAIL, donor.email, donor.id];
}

/** A record as read, with `israeliId: null` when it was written before the field existed. */
const stored = (donor: Donor | null): Donor | null =>
  donor && { ...donor, israeliId: donor.israeliId ?? null };

/** The {@link DonorRepository} of the store on `ctx`. */
export function kvDonors(
  { kv }: KvContext,
): Omit<DonorRepository, "createAdmitted" | "erase" | "deleteUnused"> {
  return {
    async create(input) {
      const donor = canonicalDonor(input);
      const key = [DONORS, donor.id];
      const ok = await commit(() =>
        kv.atomic().check({ key, versionstamp: null }).set(key, donor).set(donorEmailKey(donor), donor.id)
      );
      if (!ok) throw new Error("a donor with this id exists already"); // never the id: it is a capability
      return donor;
    },

    async get(id) {
      return stored((await retryWhileLocked(() => kv.get<Donor>([DONORS, id]))).value);
    },

    async idsByEmail(email, limit, after) {
      const max = batchLimit(limit);
      const prefix = [DONORS_BY_EMAIL, normalizeEmail(email)];
      // After the cursor, exclusive: in KV's byte order the string right after `after` is `after` + NUL.
      const selector = after === undefined ? { prefix } : { prefix, start: [...prefix, `${after}\u0000`] };
      return await retryWhileLocked(async () => {
        const ids: string[] = [];
        for await (const e of kv.list<string>(selector, { limit: max })) ids.push(e.value);
        return ids;
      });
    },

    async update(id, changes) {
      const key = [DONORS, id];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<Donor>(key));
        const donor = stored(entry.value);
        if (donor === null) return null;
        if (changes.paymentDate !== undefined) {
          donor.paymentDate = isoInstantOrNull(changes.paymentDate, "paymentDate");
        }
        if (changes.nextPaymentDate !== undefined) {
          donor.nextPaymentDate = isoInstantOrNull(changes.nextPaymentDate, "nextPaymentDate");
        }
        if (changes.monthlyPaymentAvailable !== undefined) {
          donor.monthlyPaymentAvailable = changes.monthlyPaymentAvailable;
        }
        return (await commit(() => kv.atomic().check(entry).set(key, donor))) ? donor : RETRY;
      });
    },
  };
}
