/**
 * The member card worker: draws cards for the pool (`card_pool.ts`) on its own thread, one at a
 * time, as the receipt workers draw receipts (`lib/receipts/pdf_worker.ts`, whose native-zlib
 * deflate this worker uses too), and makes their Apple Wallet passes (`wallet_pass.ts`, loaded with
 * the first pass).
 *
 * @module
 */
import { deflateSync } from "node:zlib";
import pako from "pako";
import { serveJobs } from "@/lib/core/worker_pool.ts";
import type { MemberCardFace } from "./card_face.ts";
import { renderCardPdf, renderCardPng } from "./card_draw.ts";
import type { WalletPassOrder } from "./wallet_pass.ts";

/** A job for this worker: a card, as a PDF, a PNG or an Apple Wallet pass. */
export interface CardJob {
  face: MemberCardFace;
  format: "pdf" | "png" | WalletPassOrder;
}

pako.deflate = (data: Uint8Array) => deflateSync(data);

serveJobs(
  async ({ face, format }: CardJob) => {
    if (format === "pdf") return await renderCardPdf(face);
    if (format === "png") return await renderCardPng(face);
    return (await import("./wallet_pass.ts")).walletPass(face, format);
  },
  (file) => [file.buffer],
);
