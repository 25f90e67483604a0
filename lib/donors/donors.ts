/**
 * Donors: created from the donation form, shown on the cancel page, and able to stop their
 * monthly donation.
 *
 * Every form submit makes a new record with a new id, never one handed out before: a donor id is the
 * spec's cancel link, a capability, so a record answered to two callers would show each of them
 * every gift the other later made on it (its dates; cancel its monthly gift). Since anyone may submit
 * under any address, an address past {@link MANY_RECORDS} records has its unused ones recycled
 * instead of piling up (issue 23): each new record deletes up to {@link RECYCLED_PER_CREATION}
 * records of the address that nothing names (no payment was ever started with them, so no gift,
 * monthly gift, receipt or message either) and that are over an hour old ({@link UNUSED_AFTER_MS}:
 * the form starts its payment within seconds of making the record, so whoever holds that id has long
 * left). The ones tried are the {@link RECYCLE_WINDOW} after the new record in the email index
 * (random ids: a random window), wrapping to its start, so the work per request is bounded.
 *
 * @module
 */
import type { z } from "zod";
import { newId } from "@/lib/core/ids.ts";
import type { MessageInput } from "@/lib/storage/message_types.ts";
import type { CreateDonorSchema, DonorSchema } from "./schemas.ts";
import { refusalError } from "@/lib/rate_limits/mod.ts";
import type { Admission, Donor, Store } from "@/lib/storage/types.ts";

/** The user fields of spec section 3, as `GET /api/user/{id}` answers them. */
export type DonorView = z.infer<typeof DonorSchema>;

/**
 * Creates a donor. Every call makes a new record with a new unguessable id, even for an email
 * seen before: answering an existing id would hand a stranger that donor's cancel link. The Israeli
 * ID number, when given, is the schema's nine digits (`israeliId`); it is never logged. Past
 * {@link MANY_RECORDS} records under the address, unused ones are recycled (the module's doc).
 *
 * @example
 * ```ts
 * const donor = await createDonor(store, { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" });
 * donor.id; // "q2V0bUoHx3f1k8Zr0aTQ9w_L"
 * ```
 */
export async function createDonor(
  store: Store,
  input: Omit<z.output<typeof CreateDonorSchema>, "israeliId"> & { israeliId?: string | null },
  now: Date = new Date(),
  admission?: Admission,
): Promise<Donor> {
  const donor: Donor = {
    id: newId(),
    ...input,
    israeliId: input.israeliId ?? null,
    createdAt: now.toISOString(),
    paymentDate: null,
    nextPaymentDate: null,
    monthlyPaymentAvailable: false,
  };
  let created = donor;
  if (!admission) created = await store.donors.create(donor);
  else {
    // Counted in the same storage call that stores the donor (`lib/rate_limits/rate_limits.ts`).
    const answer = await store.donors.createAdmitted(donor, admission, now.getTime());
    if (!answer.admitted) throw refusalError(answer);
    created = answer.donor;
  }
  await recycleUnused(store, created, now);
  return created;
}

/** Records an address keeps before a new one recycles unused ones. */
export const MANY_RECORDS = 20;
/** How old an unused record must be to be recycled: its form would have used it within seconds. */
export const UNUSED_AFTER_MS = 3_600_000;
/** Records tried per new one: those after it in the email index. */
export const RECYCLE_WINDOW = 50;
/** Records recycled per new one at most: more than one, so an address past the mark shrinks back. */
export const RECYCLED_PER_CREATION = 2;

/**
 * Deletes up to {@link RECYCLED_PER_CREATION} unused records of `donor`'s address, older than
 * {@link UNUSED_AFTER_MS}, from the {@link RECYCLE_WINDOW} after `donor` in the email index, when the
 * address has more than {@link MANY_RECORDS}; answers how many.
 */
async function recycleUnused(store: Store, donor: Donor, now: Date): Promise<number> {
  const { donors } = store;
  if ((await donors.idsByEmail(donor.email, MANY_RECORDS + 1)).length <= MANY_RECORDS) return 0;
  const after = await donors.idsByEmail(donor.email, RECYCLE_WINDOW, donor.id);
  const wrapped = after.length < RECYCLE_WINDOW
    ? await donors.idsByEmail(donor.email, RECYCLE_WINDOW - after.length)
    : [];
  const window = [...new Set([...after, ...wrapped])].filter((id) => id !== donor.id);
  const before = new Date(now.getTime() - UNUSED_AFTER_MS).toISOString();
  let recycled = 0;
  for (const id of window) {
    if (recycled === RECYCLED_PER_CREATION) break;
    if (await donors.deleteUnused(id, before)) recycled++;
  }
  return recycled;
}

/**
 * The public view of a donor: the spec's fields, nothing internal.
 *
 * @example
 * ```ts
 * donorView(donor); // { id, firstName, lastName, email, country, paymentDate, nextPaymentDate, monthlyPaymentAvailable }
 * ```
 */
export function donorView(donor: Donor): DonorView {
  return {
    id: donor.id,
    firstName: donor.firstName,
    lastName: donor.lastName,
    email: donor.email,
    country: donor.country,
    paymentDate: donor.paymentDate,
    nextPaymentDate: donor.monthlyPaymentAvailable ? donor.nextPaymentDate : null,
    monthlyPaymentAvailable: donor.monthlyPaymentAvailable,
  };
}

/**
 * Stops all future monthly charges of a donor at once; idempotent. Answers the donor as stored,
 * or `null` for an unknown id. When something is cancelled, the confirmation email
 * (`monthly-cancelled`, in the language of the donor's latest active gift) is enqueued in the same
 * atomic step; a repeat cancels nothing and sends nothing.
 *
 * @example
 * ```ts
 * const donor = await stopMonthlyPayments(store, id); // donor.monthlyPaymentAvailable === false
 * ```
 */
export async function stopMonthlyPayments(
  store: Store,
  id: string,
  now: Date = new Date(),
): Promise<Donor | null> {
  if (!await store.donors.get(id)) return null;
  const active = (await store.subscriptions.listByDonor(id)).filter((s) => s.status === "active");
  const at = now.toISOString();
  const messages: MessageInput[] = active.length === 0 ? [] : [{
    key: `cancelled:${id}:${at}`,
    kind: "monthly-cancelled",
    to: { donorId: id },
    language: active.at(-1)!.language,
    data: { at },
  }];
  // Subscriptions first: billing re-reads a subscription right before charging it.
  await store.subscriptions.cancelForDonor(id, at, { messages });
  return await store.donors.update(id, { monthlyPaymentAvailable: false, nextPaymentDate: null });
}
