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
 *    stay (financial records the law keeps), and receipts stay as issued (legal copies, see
 *    docs/privacy.md for how long each is kept). Messages still queued to the donor are skipped when their
 *    turn comes (their renderer finds the donor erased), so nothing more is sent.
 * Every record of the address, however many (anyone may create records under any address, issue
 * 23): the email index is swept page by page after a cursor, then read again from its start, until
 * no record is left under the address (erased records leave the index); records created meanwhile
 * are erased by the next sweep. Only then is the erasure done; after {@link MAX_ERASURE_SWEEPS}
 * sweeps that each still found records, {@link ErasureUnfinishedError} says so instead.
 * Then the address's membership (issue 27) is deleted with its member number (`memberships.erase`):
 * it is keyed by the address and names the donor; the gifts that paid it keep their amounts in their
 * transactions. It goes after the records, so a gift at a level that was charged meanwhile and renewed
 * it is erased too (its monthly gift is cancelled by then).
 * Then every sign-in link and session of the address is deleted (`donorSessions.deleteForEmail`):
 * the donor is signed out on every device, and the address leaves the portal's records too.
 * Idempotent: a repeat finds no donor record under the address and does nothing; a repeat after a
 * failure half way finishes the erasure (`donors.erase` is safe to repeat).
 *
 * @module
 */
import { DomainError } from "@/lib/core/errors.ts";
import { donorIdPages } from "@/lib/donors/mod.ts";
import type { Store } from "@/lib/storage/types.ts";

/** What the donor must send to confirm (the form's checkbox). */
export const ERASURE_CONFIRMATION = "erase";

/** An erasure asked for without its confirmation. */
export class ErasureNotConfirmedError extends DomainError {
  override readonly kind = "invalid";
  constructor() {
    super("Confirm the erasure first", [{ path: "confirm", message: "missing" }]);
  }
}

/** Sweeps of the address's records before an erasure that keeps finding new ones gives up. */
export const MAX_ERASURE_SWEEPS = 5;
/** Records per page of a sweep. */
const SWEEP_PAGE = 100;

/**
 * Records were still being created under the address after {@link MAX_ERASURE_SWEEPS} sweeps: what
 * was there is erased, but the erasure is not done (the donor presses the button again).
 */
export class ErasureUnfinishedError extends DomainError {
  override readonly kind = "conflict";
  constructor(readonly report: ErasureReport) {
    super("New donor records keep appearing under this address; the erasure is not finished");
  }
}

/** What an erasure did. */
export interface ErasureReport {
  /** Donor records erased. */
  donorRecords: number;
  /** Active monthly gifts cancelled first. */
  cancelledGifts: number;
  /** Memberships deleted (0 or 1: one per address). */
  memberships: number;
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
  store: Pick<Store, "donors" | "subscriptions" | "donorSessions" | "memberships">,
  email: string,
  confirmation: unknown,
  now: Date = new Date(),
): Promise<ErasureReport> {
  if (confirmation !== ERASURE_CONFIRMATION) throw new ErasureNotConfirmedError();
  const at = now.toISOString();
  const report: ErasureReport = { donorRecords: 0, cancelledGifts: 0, memberships: 0, signIns: 0 };
  for (let sweep = 0; (await store.donors.idsByEmail(email, 1)).length > 0; sweep++) {
    if (sweep === MAX_ERASURE_SWEEPS) throw new ErasureUnfinishedError(report);
    for await (const ids of donorIdPages(store, email, SWEEP_PAGE)) {
      for (const id of ids) {
        // Each record's gifts first: no charge after its erasure.
        report.cancelledGifts += await store.subscriptions.cancelForDonor(id, at);
        if (await store.donors.erase(id, at)) report.donorRecords++;
      }
    }
  }
  if (await store.memberships.erase(email)) report.memberships = 1;
  report.signIns = await store.donorSessions.deleteForEmail(email);
  return report;
}
