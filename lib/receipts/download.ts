/**
 * A receipt's PDF for a download link of the donor's manage page: counted against the client's
 * address first (however the code turns out: a loop of one link, or of guessed codes, is stopped
 * alike), then the code is checked (signature, then expiry) before storage is read, and the
 * receipt is drawn in the language asked for by the app's receipt workers (kept a while once
 * drawn: `pdf_pool.ts`), with the Israeli ID number masked when the code says so (a page opened by
 * an emailed link, issue 23). And the list the cancel page shows: the donor's receipts, each with a
 * fresh, masked download link.
 *
 * @module
 */

import type { Attachment } from "@/lib/storage/message_types.ts";
import { addressBucket, limitHits } from "@/lib/rate_limits/mod.ts";
import { maskIsraeliId } from "@/lib/shared/israeli_id.ts";
import type { Receipt, Store } from "@/lib/storage/types.ts";
import { receiptPdfAttachment } from "./attachment.ts";
import type { RenderReceiptPdf } from "./pdf_pool.ts";
import { readReceiptDownloadCode, receiptDownloadCode } from "./verify_code.ts";

/**
 * Receipt downloads per client address (IPv6 by its /64) per {@link DOWNLOAD_WINDOW_MS}: a donor
 * downloads a few, and a museum's shared Wi-Fi several donors' worth, while a loop of one link is
 * stopped after these.
 */
export const DOWNLOADS_PER_ADDRESS = 30;
/** The window of {@link DOWNLOADS_PER_ADDRESS}: 10 minutes. */
export const DOWNLOAD_WINDOW_MS = 600_000;

/** The file, or why there is none. */
export type ReceiptDownload = { kind: "file"; attachment: Attachment } | { kind: "invalid" | "expired" };

/** What {@link receiptDownload} works with. */
export interface ReceiptDownloadDeps {
  store: Pick<Store, "receipts" | "rateLimits">;
  appSecret: string;
  origin: string;
  /** The app's receipt workers (`services.receiptPdfs.render`). */
  renderPdf: RenderReceiptPdf;
}

/**
 * The receipt a download code names, as a PDF in `language`, for the client at `address`. Throws
 * `RateLimitedError` (429) past {@link DOWNLOADS_PER_ADDRESS}, and `ReceiptsBusyError` (503) when
 * the receipt workers' queue is full.
 *
 * @example
 * ```ts
 * const found = await receiptDownload(deps, { code, language: "he", address: "203.0.113.7" });
 * if (found.kind === "file") found.attachment.content; // the PDF
 * ```
 */
export async function receiptDownload(
  deps: ReceiptDownloadDeps,
  request: { code: string | null; language: string; address: string },
  now = new Date(),
): Promise<ReceiptDownload> {
  const key = `receipt-download:addr:${addressBucket(request.address)}`;
  await limitHits(deps.store, [{ key, limit: DOWNLOADS_PER_ADDRESS }], DOWNLOAD_WINDOW_MS, now.getTime());
  const read = readReceiptDownloadCode(deps.appSecret, request.code, now);
  if (read === null) return { kind: "invalid" };
  if (read.expired) return { kind: "expired" };
  const receipt = await deps.store.receipts.get(read.id);
  if (!receipt) return { kind: "invalid" };
  const shown = read.maskTaxId ? withMaskedTaxId(receipt) : receipt;
  return { kind: "file", attachment: await receiptPdfAttachment(shown, request.language, deps) };
}

/**
 * The receipt as a PDF drawn for a masked download shows it: the ID number's last three digits only
 * (`******782`). Only drawn, never stored: the issued receipt keeps the number it was issued with.
 */
export function withMaskedTaxId(receipt: Receipt): Receipt {
  return receipt.donorTaxId === null
    ? receipt
    : { ...receipt, donorTaxId: maskIsraeliId(receipt.donorTaxId) };
}

/** One line of the manage page's list of receipts. */
export interface ReceiptLink {
  number: string;
  /** ISO 8601. */
  issuedAt: string;
  /** Minor units. */
  amount: number;
  currency: "ILS" | "USD";
  /** `/{lang}/receipts/download?c=…`, working for a day. */
  href: string;
}

/**
 * The receipts of these donors (newest first), each with a download link in `lang` that masks the
 * ID number: what the cancel page lists (its `userId` and manage `token` are links, not sign-ins).
 * `donorIds`: the donor the link names.
 *
 * @example
 * ```ts
 * const links = await receiptLinks(store, config.appSecret, [donor.id], "he");
 * ```
 */
export async function receiptLinks(
  store: Store,
  appSecret: string,
  donorIds: string[],
  lang: string,
  now = new Date(),
): Promise<ReceiptLink[]> {
  const receipts = await store.receipts.listByDonors(donorIds);
  return receipts.map((r) => ({
    number: r.number,
    issuedAt: r.issuedAt,
    amount: r.amount,
    currency: r.currency,
    href: `/${lang}/receipts/download?c=${receiptDownloadCode(appSecret, r.id, now, true)}`,
  }));
}
