/**
 * Receipt PDFs off the event loop: one worker (`pdf_worker.ts`) renders them one at a time behind a
 * bounded queue. A render costs about 60 ms of CPU (`bench/README.md`, receipts); on the event loop
 * every receipt email and every download stopped the whole site for that long. Jobs beyond the
 * queue are refused at once ({@link ReceiptsBusyError}: the sender retries later, a download gets
 * 503 with `Retry-After`).
 *
 * The worker starts with the first job (a process that sends no receipt never loads pdf-lib and
 * the font) and stays for the next; {@link ReceiptPdfPool.close} terminates it (the server's
 * shutdown, a test's end). Where the runtime cannot start a worker, the pool renders on the calling
 * thread, as before it existed.
 *
 * @module
 */
import type { Lang } from "../shared/languages.ts";
import type { Receipt } from "../storage/types.ts";
import { ReceiptsBusyError } from "./errors.ts";
import type { ReceiptPdfOptions } from "./pdf.ts";
import type { PdfAnswer, PdfJob } from "./pdf_worker.ts";

/** Renders a receipt's PDF: the pool, or `renderReceiptPdf` itself on the calling thread. */
export type RenderReceiptPdf = (
  receipt: Receipt,
  language: Lang,
  options: ReceiptPdfOptions,
) => Promise<Uint8Array>;

/** Jobs that may wait for the worker; one more is refused. */
export const MAX_QUEUED_PDFS = 64;

interface Pending {
  resolve(pdf: Uint8Array): void;
  reject(error: Error): void;
}

/**
 * One PDF worker and its queue.
 *
 * @example
 * ```ts
 * const pdfs = new ReceiptPdfPool();
 * const pdf = await pdfs.render(receipt, "he", { verifyUrl });
 * await pdfs.close();
 * ```
 */
export class ReceiptPdfPool {
  #worker: Worker | null = null;
  #inThread = false;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed = false;
  readonly #maxQueue: number;
  readonly #createWorker: () => Worker;

  constructor(options: { maxQueue?: number; createWorker?: () => Worker } = {}) {
    this.#maxQueue = options.maxQueue ?? MAX_QUEUED_PDFS;
    this.#createWorker = options.createWorker ??
      (() => new Worker(new URL("./pdf_worker.ts", import.meta.url).href, { type: "module" }));
  }

  /** The receipt's PDF, rendered by the worker; {@link ReceiptsBusyError} when the queue is full. */
  render: RenderReceiptPdf = async (receipt, language, options) => {
    if (this.#closed) throw new Error("the receipt PDF pool is closed");
    if (this.#pending.size > this.#maxQueue) {
      throw new ReceiptsBusyError(Math.ceil(this.#pending.size * 0.06) + 1);
    }
    const worker = this.#start();
    if (!worker) {
      const { renderReceiptPdf } = await import("./pdf.ts");
      return await renderReceiptPdf(receipt, language, options);
    }
    const id = this.#nextId++;
    return await new Promise<Uint8Array>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      const job: PdfJob = { id, receipt, language, options };
      worker.postMessage(job);
    });
  };

  /** Terminates the worker; waiting jobs fail. Idempotent. */
  close(): Promise<void> {
    this.#closed = true;
    this.#stop(new Error("the receipt PDF pool is closed"));
    return Promise.resolve();
  }

  #start(): Worker | null {
    if (this.#worker || this.#inThread) return this.#worker;
    try {
      this.#worker = this.#createWorker();
    } catch (e) {
      this.#inThread = true;
      console.warn(`receipt PDF worker unavailable, rendering on the event loop: ${(e as Error).message}`);
      return null;
    }
    this.#worker.onmessage = ({ data }: MessageEvent<PdfAnswer>) => {
      const pending = this.#pending.get(data.id);
      if (!pending) return;
      this.#pending.delete(data.id);
      if ("pdf" in data) pending.resolve(data.pdf);
      else pending.reject(new Error(`receipt PDF failed: ${data.error}`));
    };
    // A worker that fails outside a job (it could not load, it ran out of memory): its jobs fail,
    // and the next job starts a new one.
    this.#worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#stop(new Error(`receipt PDF worker failed: ${event.message}`));
    };
    return this.#worker;
  }

  #stop(error: Error): void {
    this.#worker?.terminate();
    this.#worker = null;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
