/**
 * A year's receipts at once (issue 15, item 2): every receipt of the signed-in donor's address
 * issued in one year, as one ZIP of the PDFs, for the donor's tax return.
 *
 * A ZIP (fflate), not one merged PDF: each receipt stays the very document that was emailed (its
 * own file, name and QR code), which is what an accountant or a tax office asks for; merging would
 * make a new document that no receipt number names. The PDFs are already compressed, so the ZIP
 * only stores them (no deflate): building it is a copy and a CRC, a few milliseconds even for
 * {@link MAX_RECEIPTS_PER_DOWNLOAD} receipts.
 *
 * The PDFs are drawn by the app's receipt workers (`services.receiptPdfs`,
 * `lib/receipts/pdf_pool.ts`), two at a time so one download never fills their queue; when the
 * queue is full anyway, the pool's `ReceiptsBusyError` reaches the route (503 with `Retry-After`).
 * A session makes one ZIP at a time ({@link ZipInProgressError}, 409: a lease in storage, so on
 * every instance), at most {@link ZIPS_PER_SESSION} an hour, and a client address at most
 * {@link ZIPS_PER_ADDRESS} (`RateLimitedError`, 429 with `Retry-After`).
 *
 * @module
 */
import { zipSync } from "fflate";
import { DomainError } from "@/lib/core/errors.ts";
import { newId } from "@/lib/core/ids.ts";
import { addressBucket, limitHits } from "@/lib/rate_limits/mod.ts";
import { receiptPdfAttachment } from "@/lib/receipts/mod.ts";
import type { RenderReceiptPdf } from "@/lib/receipts/mod.ts";
import { allDonorIds, listAcross } from "@/lib/donors/mod.ts";
import { newestReceiptFirst } from "@/lib/storage/receipt_records.ts";
import type { Receipt, Store } from "@/lib/storage/types.ts";

/** The most receipts one download holds (a monthly donor has 12 a year). */
export const MAX_RECEIPTS_PER_DOWNLOAD = 100;
/** How many of one download's PDFs wait for the worker at once. */
const IN_FLIGHT = 2;
/** How many of the address's receipts are looked at (newest first). */
const RECEIPTS_READ = 1_000;

/** A year's ZIPs one donor session may download per {@link ZIP_WINDOW_MS}. */
export const ZIPS_PER_SESSION = 10;
/** The same per client address (IPv6 by its /64): a few donors sharing a museum's Wi-Fi. */
export const ZIPS_PER_ADDRESS = 30;
/** The window of the ZIP limits: an hour. */
export const ZIP_WINDOW_MS = 3_600_000;
/** How long a session's ZIP holds its lease at most: longer than a request may last (45 s). */
const ZIP_LEASE_MS = 60_000;

/** A year's receipts are more than one download holds. */
export class TooManyReceiptsError extends DomainError {
  override readonly kind = "too_large";
  constructor(readonly count: number) {
    super(`${count} receipts are more than one download holds (${MAX_RECEIPTS_PER_DOWNLOAD})`);
  }
}

/** The session is already making a ZIP (409): one at a time per session. */
export class ZipInProgressError extends DomainError {
  override readonly kind = "conflict";
  constructor() {
    super("Your receipts are already being prepared; wait for that download to finish");
  }
}

/**
 * The year a receipt belongs to: its numbering series' year (`IL-2026` → 2026), the year of issue
 * in the issuer's time zone, as its number prints it.
 */
export function receiptYear(receipt: Pick<Receipt, "series">): number {
  return Number(receipt.series.slice(-4));
}

/** The years these receipts belong to, newest first, each once. */
export function receiptYears(receipts: readonly Pick<Receipt, "series">[]): number[] {
  return [...new Set(receipts.map(receiptYear))].filter(Number.isInteger).sort((a, b) => b - a);
}

/** The receipts of every donor record of `email` issued in `year`, oldest first. */
export async function receiptsOfYear(
  store: Pick<Store, "donors" | "receipts">,
  email: string,
  year: number,
): Promise<Receipt[]> {
  const ids = await allDonorIds(store, email);
  const receipts = await listAcross(
    ids,
    RECEIPTS_READ,
    newestReceiptFirst,
    (chunk) => store.receipts.listByDonors(chunk, RECEIPTS_READ),
  );
  return receipts.filter((r) => receiptYear(r) === year).reverse();
}

/** What a year's ZIP is made with. */
export interface ZipDeps {
  store: Pick<Store, "donors" | "receipts">;
  appSecret: string;
  origin: string;
  /** The app's receipt workers (`services.receiptPdfs.render`). */
  renderPdf: RenderReceiptPdf;
}

/** A ZIP file to download. */
export interface ZipFile {
  filename: string;
  content: Uint8Array;
  count: number;
}

/**
 * The ZIP of `email`'s receipts of `year`, each PDF in `lang`, or null when there are none;
 * {@link TooManyReceiptsError} beyond {@link MAX_RECEIPTS_PER_DOWNLOAD}.
 *
 * @example
 * ```ts
 * const zip = await yearReceiptsZip({ store, appSecret, origin, renderPdf: pool.render }, email, 2026, "he");
 * ```
 */
export async function yearReceiptsZip(
  deps: ZipDeps,
  email: string,
  year: number,
  lang: string,
): Promise<ZipFile | null> {
  const receipts = await receiptsOfYear(deps.store, email, year);
  if (receipts.length === 0) return null;
  if (receipts.length > MAX_RECEIPTS_PER_DOWNLOAD) throw new TooManyReceiptsError(receipts.length);
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < receipts.length; i += IN_FLIGHT) {
    const pdfs = await Promise.all(
      receipts.slice(i, i + IN_FLIGHT).map((r) => receiptPdfAttachment(r, lang, deps)),
    );
    for (const pdf of pdfs) files[pdf.filename] = pdf.content;
  }
  // Stored, not deflated (level 0): PDFs are compressed already. One fixed time for every entry,
  // so the same receipts make the same bytes.
  const content = zipSync(files, { level: 0, mtime: new Date(Date.UTC(year, 0, 1)) });
  return { filename: `receipts-${year}.zip`, content, count: receipts.length };
}

/** Who asks for a ZIP: the donor's session (its hash) and the client's address. */
export interface ZipClient {
  sessionHash: string;
  address: string;
}

/**
 * {@link yearReceiptsZip} for a signed-in donor: one at a time per session (a lease in storage,
 * taken first: a second ZIP meanwhile is refused with {@link ZipInProgressError} and counts
 * nothing), then counted against the session's and the address's limits (`RateLimitedError`).
 *
 * @example
 * ```ts
 * const zip = await limitedYearReceiptsZip(deps, { sessionHash: session.hash, address: ip }, email, 2026, "he");
 * ```
 */
export async function limitedYearReceiptsZip(
  deps: ZipDeps & { store: Pick<Store, "donors" | "receipts" | "rateLimits" | "leases"> },
  client: ZipClient,
  email: string,
  year: number,
  lang: string,
  now = Date.now(),
): Promise<ZipFile | null> {
  const lease = `receipts-zip:${client.sessionHash}`;
  const holder = newId();
  if (!await deps.store.leases.acquire(lease, holder, now, ZIP_LEASE_MS)) throw new ZipInProgressError();
  try {
    await limitHits(
      deps.store,
      [
        { key: `receipts-zip:session:${client.sessionHash}`, limit: ZIPS_PER_SESSION },
        { key: `receipts-zip:addr:${addressBucket(client.address)}`, limit: ZIPS_PER_ADDRESS },
      ],
      ZIP_WINDOW_MS,
      now,
    );
    return await yearReceiptsZip(deps, email, year, lang);
  } finally {
    await deps.store.leases.release(lease, holder);
  }
}
