/**
 * The receipt PDF worker: draws receipts for the pool (`pdf_pool.ts`) on its own thread, so a
 * receipt's drawing never holds up the event loop that serves donors. One job at a time; the pool
 * sends the next when this one answers. What a receipt needs every time (the parsed font, the
 * layout of its repeated labels: `fonts.ts`) is prepared once per worker.
 *
 * pdf-lib compresses every stream it writes (the page, the font subsets) with pako, zlib written
 * in JavaScript, which took a fifth of a receipt's time. In this worker (its own copy of every
 * module) pako deflates with the runtime's native zlib instead (`node:zlib`): the same zlib
 * format, a few times faster. Nothing else in the worker uses pako.
 *
 * Messages in: `{ id, job }` ({@link PdfJob}); out: `{ id, result }` (the PDF) or `{ id, error }`
 * (`lib/core/worker_pool.ts`).
 *
 * @module
 */
import { deflateSync } from "node:zlib";
import pako from "pako";
import type { Lang } from "@/lib/shared/languages.ts";
import type { Receipt } from "@/lib/storage/types.ts";
import { serveJobs } from "@/lib/core/worker_pool.ts";
import { type ReceiptPdfOptions, renderReceiptPdf } from "./pdf.ts";

/** A job for this worker. */
export interface PdfJob {
  receipt: Receipt;
  language: Lang;
  options: ReceiptPdfOptions;
}

pako.deflate = (data: Uint8Array) => deflateSync(data);

serveJobs(
  async ({ receipt, language, options }: PdfJob) => await renderReceiptPdf(receipt, language, options),
  (pdf) => [pdf.buffer],
);
