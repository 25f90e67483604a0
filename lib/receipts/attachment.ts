/**
 * The receipt PDF as an email attachment: the seam between receipts and the receipt email. The
 * message renderers (`lib/outbox/templates/`) take a `receiptAttachment` function injected, so they never load
 * the PDF libraries themselves; the app builds the real one here from its store and settings.
 *
 * The first call for a transaction issues its receipt (the next number of its issuer's series);
 * every later call, a retried send or a resend from the back office, attaches that same receipt.
 *
 * @module
 */

import type { ReceiptSettings } from "./config.ts";
import type { Attachment } from "@/lib/storage/message_types.ts";
import { FALLBACK_LANG, isLang } from "@/lib/shared/languages.ts";
import type { Receipt, Store, Transaction } from "@/lib/storage/types.ts";
import { issueReceipt, NotReceiptableError, ReceiptsNotConfiguredError } from "./issue.ts";
import type { RenderReceiptPdf } from "./pdf_pool.ts";
import { receiptCode, receiptVerifyUrl } from "./verify_code.ts";
import { receiptLabels } from "./labels.ts";
import { type MembershipLines, membershipLines } from "./membership_lines.ts";

/** What the attachment function is built from. */
export interface ReceiptAttachmentDeps {
  store: Store;
  settings: ReceiptSettings;
  /** `config.appSecret`: signs the QR code's verification code. */
  appSecret: string;
  /** The public origin the QR code opens, e.g. `config.publicUrl` (`https://donate.museum.org`). */
  origin: string;
  /** Draws the PDF: the app's receipt workers (`services.receiptPdfs.render`), never the event loop. */
  renderPdf: RenderReceiptPdf;
}

/** The donor's Israeli ID number, when the donor asked for an Israeli tax receipt. */
export async function donorTaxId(store: Store, donorId: string): Promise<string | null> {
  return (await store.donors.get(donorId))?.israeliId ?? null;
}

/**
 * The receipt's PDF in `language`, as an attachment named after its number.
 *
 * @example
 * ```ts
 * const pdf = await receiptPdfAttachment(receipt, "he", { appSecret, origin, renderPdf: services.receiptPdfs.render });
 * pdf.filename; // "receipt-IL-2026-000123.pdf"
 * ```
 */
export async function receiptPdfAttachment(
  receipt: Receipt,
  language: string,
  { appSecret, origin, renderPdf }: Pick<
    ReceiptAttachmentDeps,
    "appSecret" | "origin" | "renderPdf"
  >,
): Promise<Attachment> {
  const lang = isLang(language) ? language : FALLBACK_LANG;
  const verifyUrl = receiptVerifyUrl(origin, lang, receiptCode(appSecret, receipt.id));
  return {
    filename: `receipt-${receipt.number}.pdf`,
    contentType: "application/pdf",
    content: await renderPdf(receipt, lang, { verifyUrl }),
  };
}

/**
 * The function the receipt email's renderer is given: a transaction (and the message's language)
 * to its receipt's PDF, issuing the receipt on first use. Answers null when no receipt can be
 * issued: receipts are not configured (production without `RECEIPT_LEGAL_NAME`), or the
 * transaction is not a successful gift; the email then goes without an attachment. A gift at a
 * membership level's comes with what its receipt says of the level (`membership`), for the email.
 *
 * @example
 * ```ts
 * const receiptAttachment = receiptAttachmentFor({
 *   store, settings: config.receipts, appSecret: config.appSecret, origin: config.publicUrl!,
 *   renderPdf: services.receiptPdfs.render,
 * });
 * const pdf = await receiptAttachment(transaction, "he");
 * ```
 */
export function receiptAttachmentFor(
  deps: ReceiptAttachmentDeps,
): (
  transaction: Transaction,
  language: string,
) => Promise<(Attachment & { membership?: MembershipLines }) | null> {
  return async (transaction, language) => {
    let receipt: Receipt;
    try {
      receipt = await issueReceipt(deps.store, deps.settings, {
        transaction,
        donorName: `${transaction.user.firstName} ${transaction.user.lastName}`,
        donorTaxId: await donorTaxId(deps.store, transaction.donorId),
      });
    } catch (error) {
      if (error instanceof ReceiptsNotConfiguredError || error instanceof NotReceiptableError) return null;
      throw error;
    }
    const attachment = await receiptPdfAttachment(receipt, language, deps);
    const lang = isLang(language) ? language : FALLBACK_LANG;
    const membership = membershipLines(receipt, lang, receiptLabels(lang));
    return membership ? { ...attachment, membership } : attachment;
  };
}
