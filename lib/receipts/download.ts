/**
 * A receipt's PDF for a download link of the donor's manage page: the code is checked (signature,
 * then expiry) before storage is read, and the receipt is rendered in the language asked for.
 *
 * @module
 */

import type { Attachment } from "@/lib/mail/message_types.ts";
import type { Store } from "@/lib/storage/types.ts";
import { receiptPdfAttachment } from "./attachment.ts";
import { readReceiptDownloadCode } from "./verify_code.ts";

/** The file, or why there is none. */
export type ReceiptDownload = { kind: "file"; attachment: Attachment } | { kind: "invalid" | "expired" };

/**
 * The receipt a download code names, as a PDF in `language`.
 *
 * @example
 * ```ts
 * const found = await receiptDownload(store, { appSecret, origin }, code, "he");
 * if (found.kind === "file") found.attachment.content; // the PDF
 * ```
 */
export async function receiptDownload(
  store: Store,
  keys: { appSecret: string; origin: string },
  code: string | null,
  language: string,
  now = new Date(),
): Promise<ReceiptDownload> {
  const read = readReceiptDownloadCode(keys.appSecret, code, now);
  if (read === null) return { kind: "invalid" };
  if (read.expired) return { kind: "expired" };
  const receipt = await store.receipts.get(read.id);
  if (!receipt) return { kind: "invalid" };
  return { kind: "file", attachment: await receiptPdfAttachment(receipt, language, keys) };
}
