/**
 * Credit receipts (issue 16): the document a donor gets when the museum gives money back on a gift,
 * attached to the `refund` email. It references the gift's receipt (issued now if it was not yet),
 * and is drawn by the same PDF renderer (the app's worker pool) with a {@link CreditNote}.
 *
 * Numbering: a credit receipt is numbered after the receipt it credits, `<receipt>-C<n>` (e.g.
 * `IL-2026-000123-C1`), `n` counting the gift's succeeded refunds in the order they went through
 * (settled time, then id). So the issuer's receipt series stays gapless and untouched, a credit
 * receipt names its receipt in its number, and rendering again (a retried send) gives the same
 * number: a later refund always settles after the earlier ones.
 *
 * @module
 */
import type { Attachment } from "@/lib/storage/message_types.ts";
import { FALLBACK_LANG, isLang } from "@/lib/shared/languages.ts";
import type { Receipt, Refund, Transaction } from "@/lib/storage/types.ts";
import { donorTaxId, type ReceiptAttachmentDeps } from "./attachment.ts";
import { issueReceipt, NotReceiptableError, ReceiptsNotConfiguredError } from "./issue.ts";
import { receiptCode, receiptVerifyUrl } from "./verify_code.ts";

/** A credit receipt as the email attaches it: the PDF, its number and the receipt it credits. */
export interface CreditAttachment {
  attachment: Attachment;
  number: string;
  of: string;
}

/**
 * The credit receipt's number of `refund`: the credited receipt's number, `-C`, and the refund's
 * place among the gift's succeeded refunds (settled time, then id); null when it did not succeed.
 *
 * @example
 * ```ts
 * creditNumber("IL-2026-000123", refunds, refunds[0]); // "IL-2026-000123-C1"
 * ```
 */
export function creditNumber(
  receiptNumber: string,
  refunds: readonly Refund[],
  refund: Refund,
): string | null {
  const succeeded = refunds.filter((r) => r.state === "succeeded" && r.settledAt !== null)
    .sort((a, b) => a.settledAt!.localeCompare(b.settledAt!) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const place = succeeded.findIndex((r) => r.id === refund.id);
  return place < 0 ? null : `${receiptNumber}-C${place + 1}`;
}

/**
 * The function the refund email's renderer is given: a gift and one of its succeeded refunds to the
 * credit receipt's PDF, or null when no receipt can be issued (receipts not configured).
 *
 * @example
 * ```ts
 * const credit = creditReceiptAttachmentFor({ store, settings, appSecret, origin, renderPdf: pool.render });
 * const pdf = await credit(transaction, refund, "he"); // { attachment, number: "IL-2026-000123-C1", of: "IL-2026-000123" }
 * ```
 */
export function creditReceiptAttachmentFor(
  deps: ReceiptAttachmentDeps,
): (transaction: Transaction, refund: Refund, language: string) => Promise<CreditAttachment | null> {
  return async (transaction, refund, language) => {
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
    const number = creditNumber(
      receipt.number,
      await deps.store.refunds.listByTransaction(transaction.id),
      refund,
    );
    if (number === null) return null;
    const lang = isLang(language) ? language : FALLBACK_LANG;
    // The QR code verifies the credited receipt: the credit receipt has no record of its own.
    const verifyUrl = receiptVerifyUrl(deps.origin, lang, receiptCode(deps.appSecret, receipt.id));
    const content = await deps.renderPdf(receipt, lang, {
      verifyUrl,
      credit: { number, refundedAt: refund.settledAt!, amount: refund.amount },
    });
    return {
      attachment: { filename: `credit-receipt-${number}.pdf`, contentType: "application/pdf", content },
      number,
      of: receipt.number,
    };
  };
}
