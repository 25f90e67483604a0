/**
 * Drawn receipt PDFs kept for a while, in this process's memory: a download link opened again, a
 * loop of one donor's link, a resend right after the email, a year's ZIP after the single
 * downloads, all answer the PDF already drawn instead of drawing it again.
 *
 * Keyed by the receipt's id, the language and a SHA-256 of everything the document is drawn from
 * (the receipt as stored, and the options: the verification address, a credit note, any variant of
 * the document such as a masked Israeli ID number): whatever changes the document changes the key,
 * so a stale PDF is never answered (a report number recorded later draws anew). Bounded in entries
 * and in bytes, least recently used first out, and each entry for at most `ttlMs`. Concurrent
 * callers of one key share one drawing. Each caller gets its own copy of the bytes.
 *
 * @module
 */
import type { Lang } from "@/lib/shared/languages.ts";
import { sha256 } from "@/lib/core/sha256.ts";
import { bytesToHex } from "@/lib/shared/signing.ts";
import type { Receipt } from "@/lib/storage/types.ts";
import type { ReceiptPdfOptions } from "./pdf.ts";

/** The cache's bounds. */
export interface PdfCacheOptions {
  /** Entries at most. */
  maxEntries: number;
  /** Bytes of PDFs at most. */
  maxBytes: number;
  /** How long an entry is answered after it was drawn. */
  ttlMs: number;
  /** The clock (ms), for tests. */
  now?: () => number;
}

/** The app's bounds: 512 receipts or 16 MiB (about 600 receipts), whichever is less, for 10 minutes. */
export const PDF_CACHE: Readonly<PdfCacheOptions> = {
  maxEntries: 512,
  maxBytes: 16 * 2 ** 20,
  ttlMs: 600_000,
};

/** What the cache holds and has answered; for tests and diagnostics. */
export interface PdfCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
}

/**
 * The cache key of a receipt's document: its id, the language, and a digest of everything it is
 * drawn from.
 *
 * @example
 * ```ts
 * receiptPdfKey(receipt, "he", { verifyUrl }); // "q2V0…:he:9f2c…"
 * ```
 */
export function receiptPdfKey(receipt: Receipt, language: Lang, options: ReceiptPdfOptions): string {
  // Synchronous (`lib/core/sha256.ts`): jobs reach the workers in the order they were asked for.
  const drawnFrom = new TextEncoder().encode(JSON.stringify([receipt, language, options]));
  return `${receipt.id}:${language}:${bytesToHex(sha256(drawnFrom))}`;
}

interface Entry {
  pdf: Uint8Array;
  until: number;
}

/**
 * PDFs by key, bounded.
 *
 * @example
 * ```ts
 * const cache = new PdfCache(PDF_CACHE);
 * const pdf = await cache.get(receiptPdfKey(receipt, "he", options), () => draw(receipt));
 * ```
 */
export class PdfCache {
  readonly #o: PdfCacheOptions;
  readonly #now: () => number;
  // A Map keeps insertion order: re-inserting on use makes its first key the least recently used.
  readonly #entries = new Map<string, Entry>();
  readonly #drawing = new Map<string, Promise<Uint8Array>>();
  #bytes = 0;
  #hits = 0;
  #misses = 0;

  constructor(options: PdfCacheOptions) {
    this.#o = options;
    this.#now = options.now ?? Date.now;
  }

  /** The PDF of `key`: kept, or drawn now by `draw` (once for concurrent callers) and kept. */
  async get(key: string, draw: () => Promise<Uint8Array>): Promise<Uint8Array> {
    const kept = this.#entries.get(key);
    if (kept && kept.until > this.#now()) {
      this.#hits++;
      this.#entries.delete(key);
      this.#entries.set(key, kept);
      return kept.pdf.slice();
    }
    if (kept) this.#remove(key);
    let drawing = this.#drawing.get(key);
    if (!drawing) {
      this.#misses++;
      drawing = draw().then((pdf) => (this.#keep(key, pdf), pdf)).finally(() => this.#drawing.delete(key));
      this.#drawing.set(key, drawing);
    }
    return (await drawing).slice();
  }

  /** Counters and the current contents. */
  get stats(): PdfCacheStats {
    return { entries: this.#entries.size, bytes: this.#bytes, hits: this.#hits, misses: this.#misses };
  }

  #keep(key: string, pdf: Uint8Array): void {
    this.#remove(key);
    if (pdf.length > this.#o.maxBytes || this.#o.maxEntries < 1) return;
    this.#entries.set(key, { pdf, until: this.#now() + this.#o.ttlMs });
    this.#bytes += pdf.length;
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.#o.maxEntries && this.#bytes <= this.#o.maxBytes) break;
      this.#remove(oldest);
    }
  }

  #remove(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.pdf.length;
  }
}
