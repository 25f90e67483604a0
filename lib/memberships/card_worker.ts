/**
 * The member card worker: draws cards for the pool (`card_pool.ts`) on its own thread, one at a
 * time, as the receipt workers draw receipts (`lib/receipts/pdf_worker.ts`, whose native-zlib
 * deflate this worker uses too).
 *
 * @module
 */
import { deflateSync } from "node:zlib";
import pako from "pako";
import { serveJobs } from "@/lib/core/worker_pool.ts";
import type { MemberCardFace } from "./card_face.ts";
import { renderCardPdf, renderCardPng } from "./card_draw.ts";

/** A job for this worker: a card, as a PDF or a PNG. */
export interface CardJob {
  face: MemberCardFace;
  format: "pdf" | "png";
}

pako.deflate = (data: Uint8Array) => deflateSync(data);

serveJobs(
  async ({ face, format }: CardJob) =>
    format === "pdf" ? await renderCardPdf(face) : await renderCardPng(face),
  (file) => [file.buffer],
);
