/**
 * Legal receipts: issuing numbers, the receipt PDF (drawn by workers), downloads and verification codes.
 *
 * What other folders of `lib/` may import from this concept (`lib/README.md`); the rest is its own.
 *
 * @module
 */
export { receiptPdfAttachment } from "./attachment.ts";
export { NoSuchTransactionError } from "./errors.ts";
export { type RenderReceiptPdf } from "./pdf_pool.ts";
export { receiptDownloadCode } from "./verify_code.ts";

/** The receipt emails' attachment, loaded with the first one rendered (not with the server). */
export const loadReceiptAttachment = () => import("./attachment.ts");
/** The credit receipts' attachment (a refund's), loaded with the first one rendered. */
export const loadCreditReceipt = () => import("./credit.ts");
