/**
 * Erasure at the donor's request (issue 15, item 4: the right to erasure), from the donor portal.
 *
 * For every donor record of the signed-in address, in this order:
 * 1. its active monthly gifts are cancelled (`subscriptions.cancelForDonor`): no charge after the
 *    erasure (a charge already under way settles, and its transaction is erased with the rest).
 *    No cancellation email is sent: emails are rendered when sent, from the donor record, which is
 *    erased a moment later, so it would be skipped anyway; the page answering the erasure says
 *    that the gifts were cancelled, and a confirmation to an address the donor asked us to forget
 *    would keep it in the outbox and the mail server's logs;
 * 2. its personal fields are erased (`donors.erase`): names, email and Israeli ID number, on the
 *    record and on the copies in its transactions; amounts, dates, status and the card's last four
 *    stay (financial records the law keeps), and receipts stay as issued (legal copies, see the
 *    README for how long each is kept). Messages still queued to the donor are skipped when their
 *    turn comes (their renderer finds the donor erased), so nothing more is sent.
 * Then every sign-in link and session of the address is deleted (`donorSessions.deleteForEmail`):
 * the donor is signed out on every device, and the address leaves the portal's records too.
 * Idempotent: a repeat finds no donor record under the address
 * (erased records leave the email index) and does nothing; a repeat after a failure half way
 * finishes the erasure (`donors.erase` is safe to repeat).
 *
 * @module
 */
import { DomainError } from "@/lib/errors.ts";
import { MAX_DONOR_IDS } from "@/lib/storage/donor_queries.ts";
import type { Store } from "@/lib/storage/types.ts";

/** What the donor must send to confirm (the form's checkbox). */
export const ERASURE_CONFIRMATION = "erase";

/** An erasure asked for without its confirmation. */
export class ErasureNotConfirmedError extends DomainError {
  constructor() {
    super("Confirm the erasure first", [{ path: "confirm", message: "missing" }]);
  }
}

/** What an erasure did. */
export interface ErasureReport {
  /** Donor records erased. */
  donorRecords: number;
  /** Active monthly gifts cancelled first. */
  cancelledGifts: number;
  /** Sign-in links and sessions of the address deleted. */
  signIns: number;
}

/**
 * Erases the personal data of `email` (normalized, the session's address) once `confirmation`
 * is {@link ERASURE_CONFIRMATION}, and ends every session of the address.
 *
 * @example
 * ```ts
 * const report = await eraseDonorData(store, session.email, form.get("confirm"));
 * ```
 */
export async function eraseDonorData(
  store: Pick<Store, "donors" | "subscriptions" | "donorSessions">,
  email: string,
  confirmation: unknown,
  now: Date = new Date(),
): Promise<ErasureReport> {
  if (confirmation !== ERASURE_CONFIRMATION) throw new ErasureNotConfirmedError();
  const at = now.toISOString();
  const ids = await store.donors.idsByEmail(email, MAX_DONOR_IDS);
  let cancelledGifts = 0;
  for (const id of ids) cancelledGifts += await store.subscriptions.cancelForDonor(id, at);
  for (const id of ids) await store.donors.erase(id, at);
  const signIns = await store.donorSessions.deleteForEmail(email);
  return { donorRecords: ids.length, cancelledGifts, signIns };
}
