/**
 * Receipt PDFs, drawn only here: by workers (`pdf_worker.ts`), a worker per spare core
 * (`RECEIPT_WORKERS`), each one receipt at a time, behind a bounded queue (`lib/core/worker_pool.ts`),
 * and kept for a while once drawn (`pdf_cache.ts`). On the event loop, a receipt's drawing stopped
 * the whole site for as long (`bench/README.md`, receipts), so nothing draws one there: the
 * drawing itself refuses to run outside a worker (`pdf.ts`), and where no worker can start a
 * receipt fails (the mail sender retries later; a download answers 503). Jobs beyond the queue are
 * refused at once ({@link ReceiptsBusyError}: the sender retries later, a download gets 503 with
 * `Retry-After`).
 *
 * Workers start with the first receipt (a process that sends none never loads pdf-lib and the
 * font) and stay for the next; {@link ReceiptPdfPool.close} terminates them (the server's
 * shutdown, a test's end).
 *
 * @module
 */
import type { Logger } from "@/lib/core/log.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { Receipt } from "@/lib/storage/types.ts";
import { spareCores, WorkerPool, type WorkerPoolStats } from "@/lib/core/worker_pool.ts";
import { ReceiptsBusyError } from "./errors.ts";
import { PDF_CACHE, PdfCache, type PdfCacheOptions, type PdfCacheStats, receiptPdfKey } from "./pdf_cache.ts";
import type { ReceiptPdfOptions } from "./pdf.ts";
import type { PdfJob } from "./pdf_worker.ts";

/** Draws a receipt's PDF: the app's pool (`services.receiptPdfs.render`). */
export type RenderReceiptPdf = (
  receipt: Receipt,
  language: Lang,
  options: ReceiptPdfOptions,
) => Promise<Uint8Array>;

/** Jobs that may wait for a worker; one more is refused. */
export const MAX_QUEUED_PDFS = 64;

/** The default number of workers: a worker per spare core (every core but one), at least one. */
export const defaultReceiptWorkers = spareCores;

/** What a {@link ReceiptPdfPool} is made with; every field has a default. */
export interface ReceiptPdfPoolOptions {
  /** Workers at most (`RECEIPT_WORKERS`); {@link defaultReceiptWorkers} by default. */
  workers?: number;
  /** Jobs that may wait; {@link MAX_QUEUED_PDFS} by default. */
  maxQueue?: number;
  /** Makes a worker; the default runs `pdf_worker.ts`. (Tests give one that fails.) */
  createWorker?: () => Worker;
  /** The cache of drawn PDFs' bounds; {@link PDF_CACHE} by default. */
  cache?: PdfCacheOptions;
  /** Where the pool's one warning goes (workers unavailable): the app's log; stderr by default. */
  log?: Pick<Logger, "warn">;
}

/** What the pool has done and holds now; for tests and diagnostics. */
export interface ReceiptPdfPoolStats extends WorkerPoolStats {
  cache: PdfCacheStats;
}

const pdfWorker = () => new Worker(new URL("./pdf_worker.ts", import.meta.url).href, { type: "module" });

/**
 * The receipt workers, their queue and the cache of what they drew.
 *
 * @example
 * ```ts
 * const pdfs = new ReceiptPdfPool({ workers: 2 });
 * const pdf = await pdfs.render(receipt, "he", { verifyUrl });
 * await pdfs.close();
 * ```
 */
export class ReceiptPdfPool {
  readonly #pool: WorkerPool<PdfJob, Uint8Array>;
  readonly #cache: PdfCache;

  constructor(options: ReceiptPdfPoolOptions = {}) {
    this.#pool = new WorkerPool({
      workers: options.workers ?? defaultReceiptWorkers(),
      maxQueue: options.maxQueue ?? MAX_QUEUED_PDFS,
      createWorker: options.createWorker ?? pdfWorker,
      busy: (seconds) => new ReceiptsBusyError(seconds),
      name: "receipt PDF",
      firstGuessMs: 50,
      log: options.log,
    });
    this.#cache = new PdfCache(options.cache ?? PDF_CACHE);
  }

  /** The receipt's PDF: kept, or drawn by a worker; {@link ReceiptsBusyError} when the queue is full. */
  render: RenderReceiptPdf = (receipt, language, options) =>
    this.#cache.get(
      receiptPdfKey(receipt, language, options),
      () => this.#pool.run({ receipt, language, options }),
    );

  /** Counters, the current load and the cache. */
  get stats(): ReceiptPdfPoolStats {
    return { ...this.#pool.stats, cache: this.#cache.stats };
  }

  /** Terminates the workers; waiting jobs fail. Idempotent. */
  close(): Promise<void> {
    return this.#pool.close();
  }
}
