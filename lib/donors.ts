/**
 * Donors: created from the donation form, shown on the cancel page, and able to stop their
 * monthly donation.
 *
 * @module
 */
import type { z } from "zod";
import { newId } from "./ids.ts";
import type { MessageInput } from "./mail/message_types.ts";
import type { CreateDonorSchema, DonorSchema } from "./schemas.ts";
import { refusalError } from "./rate_limits.ts";
import type { Admission, Donor, Store } from "./storage/types.ts";

/** The user fields of spec section 3, as `GET /api/user/{id}` answers them. */
export type DonorView = z.infer<typeof DonorSchema>;

/**
 * Creates a donor. Every call makes a new record with a new unguessable id, even for an email
 * seen before: answering an existing id would hand a stranger that donor's cancel link. The Israeli
 * ID number, when given, is the schema's nine digits (`israeliId`); it is never logged.
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
  if (!admission) return await store.donors.create(donor);
  // Counted in the same storage call that stores the donor (`lib/rate_limits.ts`).
  const answer = await store.donors.createAdmitted(donor, admission, now.getTime());
  if (!answer.admitted) throw refusalError(answer);
  return answer.donor;
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
