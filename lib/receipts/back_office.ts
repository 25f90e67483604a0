/**
 * Receipts in the back office: which transaction rows link to a receipt (and where), the receipt's
 * PDF for an approved admin (issuing it when the receipt email has not done so yet), and resending
 * the receipt email. Kept apart from the donor's signed download links (`download.ts`): the admin
 * routes are authenticated by the admin's session, so their links carry no code.
 *
 * The PDF modules (pdf-lib, the font, the QR code) load with the first PDF an admin asks for, not
 * with the server, as in `lib/app/mail_renderer.ts`.
 *
 * @module
 */

import type { ReceiptSettings } from "./config.ts";
import { type Actor, actorEntry } from "@/lib/audit/mod.ts";
import type { Attachment, MessageInput } from "@/lib/storage/message_types.ts";
import { FALLBACK_LANG } from "@/lib/shared/languages.ts";
import type { OutboxMessage, Store, Transaction } from "@/lib/storage/types.ts";
import { MAX_RESENDS, NoSuchTransactionError, NotReceiptableError, TooManyResendsError } from "./errors.ts";
import { issueReceipt, issuerFor, ReceiptsNotConfiguredError } from "./issue.ts";
import type { RenderReceiptPdf } from "./pdf_pool.ts";

export { MAX_RESENDS };

/** A transaction row's receipt: its number once issued (null before) and the admin download path. */
export interface ReceiptRef {
  number: string | null;
  /** `/api/transaction/{id}/receipt` (admin-authenticated; issues the receipt on first download). */
  url: string;
}

/** The admin download path of a transaction's receipt. */
export const adminReceiptPath = (transactionId: string) =>
  `/api/transaction/${encodeURIComponent(transactionId)}/receipt`;

/** Whether a receipt can be issued for a gift in `currency` (1 = NIS, 2 = USD) with these settings. */
function canIssue(settings: ReceiptSettings, currency: 1 | 2): boolean {
  try {
    issuerFor(settings, currency === 2 ? "USD" : "ILS");
    return true;
  } catch (error) {
    if (error instanceof ReceiptsNotConfiguredError) return false;
    throw error;
  }
}

/**
 * Each successful transaction row with its receipt: the issued receipt's number and link; a link
 * with no number yet when one can still be issued; null when none can (receipts not configured).
 *
 * @example
 * ```ts
 * const rows = await withReceiptRefs(store, config.receipts, page.data);
 * rows[0].receipt; // { number: "IL-2026-000123", url: "/api/transaction/tx_1/receipt" }
 * ```
 */
export async function withReceiptRefs<T extends { id: string; resultData: { DebitCurrency: 1 | 2 } }>(
  store: Store,
  settings: ReceiptSettings,
  rows: T[],
): Promise<(T & { receipt: ReceiptRef | null })[]> {
  // One read for the page (a list is at most 100 rows; byTransactions takes up to 1,000).
  const receipts = await store.receipts.byTransactions(rows.map((row) => row.id));
  return rows.map((row) => {
    const number = receipts.get(row.id)?.number ?? null;
    const linked = number !== null || canIssue(settings, row.resultData.DebitCurrency);
    return { ...row, receipt: linked ? { number, url: adminReceiptPath(row.id) } : null };
  });
}

/** A successful gift by id: {@link NoSuchTransactionError} or {@link NotReceiptableError} otherwise. */
async function receiptableTransaction(store: Store, transactionId: string): Promise<Transaction> {
  const tx = await store.transactions.get(transactionId);
  if (!tx) throw new NoSuchTransactionError();
  if (tx.kind !== "success" || tx.amount === null || tx.amount <= 0 || tx.currency === null) {
    throw new NotReceiptableError();
  }
  return tx;
}

/** What {@link adminReceiptPdf} is given: as `receiptAttachmentFor` is. */
export interface AdminReceiptDeps {
  store: Store;
  settings: ReceiptSettings;
  appSecret: string;
  /** The public origin the QR code opens. */
  origin: string;
  /** Draws the PDF: the app's receipt workers (`services.receiptPdfs.render`). */
  renderPdf: RenderReceiptPdf;
}

/**
 * A transaction's receipt as a PDF in `language`, for an approved admin: the receipt already issued
 * (the same number the donor's email carries), or a new one issued now. Throws
 * {@link NoSuchTransactionError}, {@link NotReceiptableError} (not a successful gift) or
 * `ReceiptsNotConfiguredError`.
 *
 * @example
 * ```ts
 * const pdf = await adminReceiptPdf({ store, settings, appSecret, origin, renderPdf: pool.render }, "tx_1", "he");
 * pdf.filename; // "receipt-IL-2026-000123.pdf"
 * ```
 */
export async function adminReceiptPdf(
  deps: AdminReceiptDeps,
  transactionId: string,
  language: string,
): Promise<Attachment> {
  const tx = await receiptableTransaction(deps.store, transactionId);
  const receipt = await issueReceipt(deps.store, deps.settings, {
    transaction: tx,
    donorName: `${tx.user.firstName} ${tx.user.lastName}`,
    donorTaxId: (await deps.store.donors.get(tx.donorId))?.israeliId ?? null,
  });
  const { receiptPdfAttachment } = await import("./attachment.ts");
  return await receiptPdfAttachment(receipt, language, deps);
}

/**
 * A second click on 'Resend' within this time answers the resend already queued instead of sending
 * the email again.
 */
export const RESEND_REPEAT_MS = 10_000;

/** What {@link resendReceipt} answers. */
export interface ResendAnswer {
  /** The resent message's outbox key: `receipt:{transactionId}:resend:{n}`. */
  key: string;
  /** True when a resend asked for moments ago answered instead (no second email). */
  repeated: boolean;
  /** The receipt's number, or null when the receipt is not issued yet (it is when the email renders). */
  receiptNumber: string | null;
}

/**
 * Enqueues the receipt email of a successful gift again, in the language of the first one, to the
 * donor's address on file; it attaches the same receipt (same number). Resends are numbered
 * (`receipt:{id}:resend:1`, `:2`, ...), each key stored once: two requests at the same moment take
 * the same number and enqueue one message, and a request within {@link RESEND_REPEAT_MS} of the
 * last resend answers that one. Throws {@link NoSuchTransactionError}, {@link NotReceiptableError}
 * or {@link TooManyResendsError}.
 *
 * @example
 * ```ts
 * await resendReceipt(store, "tx_1"); // { key: "receipt:tx_1:resend:1", repeated: false, receiptNumber: "IL-2026-000123" }
 * ```
 */
export async function resendReceipt(
  store: Store,
  transactionId: string,
  now = new Date(),
  actor?: Actor,
): Promise<ResendAnswer> {
  const tx = await receiptableTransaction(store, transactionId);
  const first = await store.outbox.get(`receipt:${tx.id}`);
  let last: OutboxMessage | null = null;
  let n = 1;
  for (; n <= MAX_RESENDS; n++) {
    const found = await store.outbox.get(`receipt:${tx.id}:resend:${n}`);
    if (!found) break;
    last = found;
  }
  const receiptNumber = (await store.receipts.byTransaction(tx.id))?.number ?? null;
  if (last && now.getTime() - Date.parse(last.createdAt) < RESEND_REPEAT_MS) {
    return { key: last.key, repeated: true, receiptNumber };
  }
  if (n > MAX_RESENDS) throw new TooManyResendsError();
  const message: MessageInput<"receipt"> = {
    key: `receipt:${tx.id}:resend:${n}`,
    kind: "receipt",
    to: { donorId: tx.donorId },
    language: first?.language ?? FALLBACK_LANG,
    data: { transactionId: tx.id },
  };
  // The staff's resend is audited (`receipt-resent`) in the same write, only when it queued one.
  const created = await store.outbox.enqueue([message], now.toISOString(), {
    audit: actor
      ? [actorEntry(actor, "receipt-resent", tx.id, { message: message.key, receiptNumber, resend: n })]
      : [],
  });
  return { key: message.key, repeated: created === 0, receiptNumber };
}
