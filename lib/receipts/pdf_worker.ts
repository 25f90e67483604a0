/**
 * The receipt PDF worker: renders receipts for the pool (`pdf_pool.ts`) on its own thread, so a
 * render (about 60 ms of CPU: the font parsed and subset, the QR code drawn) never holds up the
 * event loop that serves donors. One job at a time; the pool sends the next when this one answers.
 *
 * Messages in: `{ id, receipt, language, options }`; out: `{ id, pdf }` or `{ id, error }`.
 *
 * @module
 */
import type { Lang } from "../shared/languages.ts";
import type { Receipt } from "../storage/types.ts";
import { type ReceiptPdfOptions, renderReceiptPdf } from "./pdf.ts";

/** A job for this worker. */
export interface PdfJob {
  id: number;
  receipt: Receipt;
  language: Lang;
  options: ReceiptPdfOptions;
}

/** This worker's answer to a job: the PDF, or why there is none. */
export type PdfAnswer = { id: number; pdf: Uint8Array } | { id: number; error: string };

// `self` is the worker's global scope here; typed loosely because the project checks every file
// with the window's library.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<PdfJob>) => void) | null;
  postMessage(message: PdfAnswer, transfer?: Transferable[]): void;
};

scope.onmessage = async ({ data: { id, receipt, language, options } }) => {
  try {
    const pdf = await renderReceiptPdf(receipt, language, options);
    scope.postMessage({ id, pdf }, [pdf.buffer]);
  } catch (e) {
    scope.postMessage({ id, error: e instanceof Error ? e.message : String(e) });
  }
};
