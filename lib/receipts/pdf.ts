/**
 * The receipt as a PDF, in the donor's language: drawn with pdf-lib, in DejaVu Sans (embedded,
 * subset to the glyphs used), Hebrew laid out right to left (`bidi.ts`: put in visual order once,
 * and drawn in that order), every word from `locales/` (`receipt`), values (names, numbers,
 * addresses) isolated so each keeps its own direction, with a QR code that opens the public
 * verification page.
 *
 * It prints what the issue asks of a legal receipt: the issuer's legal name, address and
 * registration numbers (non-profit number and Section 46 approval, or the US EIN), the receipt's
 * number, dates, the donor's name (and Israeli ID number on Israeli receipts), the amount in
 * figures and in words, the payment method with the card's last four digits, the Section 46
 * statement when the museum has an approval, the "no goods or services" statement on USD receipts,
 * and the Tax Authority's allocation number once a certified issuer gave one.
 *
 * Rendering reads only the receipt (which keeps everything it prints as issued) and the language,
 * so the same receipt renders the same way whenever it is downloaded again.
 *
 * Drawn only in a receipt worker (`pdf_pool.ts`): {@link renderReceiptPdf} refuses to run on the
 * event loop, where a receipt's drawing would stop the whole site for as long.
 *
 * @module
 */

import {
  fill,
  PDFDocument,
  type PDFFont,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingGrayscaleColor,
} from "pdf-lib";
import QRCode from "qrcode";
import { dirOf, isolate, type Lang } from "@/lib/shared/languages.ts";
import type { Receipt } from "@/lib/storage/types.ts";
import { drawable, visualOrder } from "@/lib/core/pdf/bidi.ts";
import { embedReceiptFonts } from "@/lib/core/pdf/fonts.ts";
import { receiptLabels } from "./labels.ts";
import { amountInFigures, longDate, TIME_ZONES } from "./format.ts";
import { amountInWords } from "@/lib/core/money_words.ts";
import { membershipLines } from "./membership_lines.ts";

/**
 * A credit receipt (issue 16, `credit.ts`): money given back on the gift of `receipt`. The PDF then
 * says so in its title, prints its own number, the receipt it credits, the refund's date and amount,
 * and no donation statements (Section 46, "no goods or services").
 */
export interface CreditNote {
  /** The credit receipt's number, e.g. `IL-2026-000123-C1`. */
  number: string;
  /** ISO 8601: when the refund went through. */
  refundedAt: string;
  /** Minor units refunded. */
  amount: number;
}

/** What the renderer needs besides the receipt and the language. */
export interface ReceiptPdfOptions {
  /** The verification page's address with the receipt's signed code (`verifyUrl` in `verify_code.ts`). */
  verifyUrl: string;
  /** Draw the credit receipt of a refund of this receipt's gift instead of the receipt. */
  credit?: CreditNote;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.35, 0.35, 0.4);
/** The labels' column: at least this wide, wider for a language's longer labels up to the most. */
const LABELS = { least: 170, most: 250, gap: 14 };

/** Draws lines top down, from the start side of the language's direction. */
class Writer {
  y = A4[1] - MARGIN;
  readonly width = A4[0] - 2 * MARGIN;

  constructor(
    readonly page: PDFPage,
    readonly fonts: { regular: PDFFont; bold: PDFFont },
    readonly dir: "ltr" | "rtl",
  ) {}

  /** The x of a run `width` wide, `indent` from the start side. */
  x(width: number, indent = 0): number {
    return this.dir === "rtl" ? A4[0] - MARGIN - indent - width : MARGIN + indent;
  }

  /** `text` split into lines no wider than `max` at `size` (on spaces; a longer word on characters). */
  wrap(text: string, size: number, max: number, font: PDFFont): string[] {
    const lines: string[] = [];
    let line = "";
    const width = (s: string) => font.widthOfTextAtSize(drawable(s), size);
    // Any whitespace separates words (no regular expression: see lib/app/input_patterns_test.ts).
    const spaced = [...text].map((c) => (c.trim() === "" ? " " : c)).join("");
    const words = spaced.split(" ").filter(Boolean);
    // Most texts fit on one line: measured once, not once per word (a layout each).
    const whole = words.join(" ");
    if (width(whole) <= max) return whole ? [whole] : [];
    for (const word of words) {
      const next = line ? `${line} ${word}` : word;
      if (width(next) <= max) line = next;
      else if (width(word) <= max) {
        if (line) lines.push(line);
        line = word;
      } else {
        if (line) lines.push(line);
        line = "";
        for (const char of word) {
          if (width(line + char) > max) (lines.push(line), line = "");
          line += char;
        }
      }
    }
    if (line) lines.push(line);
    return lines;
  }

  /**
   * One piece of text at the current line, `indent` from the start side, in visual order; a value
   * (`isolated`) in its own direction, still from the start side.
   */
  draw(text: string, size: number, { bold = false, indent = 0, color = INK, isolated = false } = {}): void {
    const font = bold ? this.fonts.bold : this.fonts.regular;
    const visual = visualOrder(isolated ? isolate(text) : text, this.dir);
    const width = font.widthOfTextAtSize(visual, size);
    this.page.drawText(visual, { x: this.x(width, indent), y: this.y, size, font, color });
  }

  /** A paragraph, wrapped, then the next line. */
  paragraph(
    text: string,
    size: number,
    options: { bold?: boolean; gap?: number; color?: typeof INK; isolated?: boolean } = {},
  ) {
    const font = options.bold ? this.fonts.bold : this.fonts.regular;
    for (const line of this.wrap(text, size, this.width, font)) {
      this.draw(line, size, options);
      this.y -= size * 1.45;
    }
    this.y -= options.gap ?? 0;
  }

  /**
   * Labels and their values, in two columns: the labels' as wide as the longest label needs
   * (between `LABELS.least` and `LABELS.most`; a longer label wraps in it), so no label runs into
   * its value in any language.
   */
  fields(rows: [label: string, value: string][]): void {
    const size = 11;
    const widest = Math.max(
      ...rows.map(([label]) => this.fonts.bold.widthOfTextAtSize(drawable(label), size)),
    );
    const column = Math.min(LABELS.most, Math.max(LABELS.least, Math.ceil(widest) + LABELS.gap));
    for (const [label, value] of rows) {
      const labels = this.wrap(label, size, column - LABELS.gap, this.fonts.bold);
      const values = this.wrap(value, size, this.width - column, this.fonts.regular);
      const top = this.y;
      const lineAt = (i: number) => (this.y = top - i * size * 1.45);
      labels.forEach((line, i) => (lineAt(i), this.draw(line, size, { bold: true })));
      values.forEach((line, i) => (lineAt(i), this.draw(line, size, { indent: column, isolated: true })));
      this.y = lineAt(Math.max(labels.length, values.length) - 1) - 20;
    }
  }

  rule(): void {
    this.page.drawLine({
      start: { x: MARGIN, y: this.y + 6 },
      end: { x: A4[0] - MARGIN, y: this.y + 6 },
      thickness: 0.7,
      color: MUTED,
    });
    this.y -= 16;
  }

  /** The QR code of `text`, `side` points wide, at the start side; moves below it. */
  qr(text: string, side: number): void {
    // The address as one byte-mode segment: the encoder's search for the shortest mix of modes
    // (half of the code's time) saves a few bits at best in an address of lower-case letters.
    const { modules } = QRCode.create([{ data: new TextEncoder().encode(text), mode: "byte" }], {
      errorCorrectionLevel: "M",
    });
    const cell = side / modules.size;
    const left = this.x(side);
    const top = this.y;
    // One rectangle per run of dark modules in a row, all filled at once: a few operators per
    // run, where a drawn rectangle each was a dozen (a good part of a receipt's time).
    const runs = [];
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size;) {
        if (!modules.data[row * modules.size + col]) {
          col++;
          continue;
        }
        let end = col;
        while (end < modules.size && modules.data[row * modules.size + end]) end++;
        runs.push(rectangle(left + col * cell, top - (row + 1) * cell, (end - col) * cell, cell));
        col = end;
      }
    }
    this.page.pushOperators(
      pushGraphicsState(),
      setFillingGrayscaleColor(0),
      ...runs,
      fill(),
      popGraphicsState(),
    );
    this.y = top - side - 12;
  }
}

/** Whether this code runs in a worker (Deno's main thread has no `WorkerGlobalScope`). */
const inWorker = () => "WorkerGlobalScope" in globalThis;

/**
 * The receipt's PDF in `language`. Only in a worker: on the event loop it refuses (draw through
 * the app's pool, `services.receiptPdfs`).
 *
 * @example
 * ```ts
 * const pdf = await renderReceiptPdf(receipt, "he", { verifyUrl: verifyUrl(origin, "he", code) });
 * ```
 */
export async function renderReceiptPdf(
  receipt: Receipt,
  language: Lang,
  { verifyUrl, credit }: ReceiptPdfOptions,
): Promise<Uint8Array> {
  if (!inWorker()) {
    throw new Error(
      "a receipt PDF is drawn by a receipt worker (lib/receipts/pdf_pool.ts), never on the event loop",
    );
  }
  const t = receiptLabels(language);
  const pdf = await PDFDocument.create();
  const fonts = await embedReceiptFonts(pdf, language);
  const heading = credit ? t("refunds.credit.title") : t("receipt.title");
  const title = `${heading} ${credit?.number ?? receipt.number}`;
  const issued = new Date(credit?.refundedAt ?? receipt.issuedAt);
  pdf.setTitle(title);
  pdf.setLanguage(language);
  pdf.setAuthor(receipt.issuer.legalName);
  pdf.setCreator(receipt.issuer.legalName);
  pdf.setProducer("museum donations (pdf-lib)");
  pdf.setCreationDate(issued);
  pdf.setModificationDate(issued);

  const w = new Writer(pdf.addPage(A4), fonts, dirOf(language));
  const zone = TIME_ZONES[receipt.issuer.organization];
  const issuer = receipt.issuer;

  w.paragraph(heading, 20, { bold: true, gap: 4 });
  w.paragraph(issuer.legalName, 13, { bold: true, isolated: true });
  w.paragraph(issuer.address, 10, { color: MUTED, isolated: true });
  if (issuer.nonprofitNumber) {
    w.paragraph(`${t("receipt.nonprofitNumber")}: ${isolate(issuer.nonprofitNumber)}`, 10);
  }
  if (issuer.section46Approval) {
    const approval = issuer.section46ValidUntil
      ? t("receipt.section46Until", {
        number: isolate(issuer.section46Approval),
        date: isolate(longDate(`${issuer.section46ValidUntil}T12:00:00Z`, language, "UTC")),
      })
      : issuer.section46Approval;
    w.paragraph(`${t("receipt.section46")}: ${isolate(approval)}`, 10);
  }
  if (issuer.ein) w.paragraph(`${t("receipt.ein")}: ${isolate(issuer.ein)}`, 10);
  w.y -= 8;
  w.rule();

  const rows: [string, string][] = credit
    ? [
      [t("receipt.number"), credit.number],
      [t("refunds.credit.creditOf"), receipt.number],
      [t("refunds.credit.refundDate"), longDate(credit.refundedAt, language, zone)],
      [t("refunds.credit.amount"), amountInFigures(credit.amount, receipt.currency, language)],
      [t("receipt.amountInWords"), amountInWords(credit.amount, receipt.currency, language)],
    ]
    : [[t("receipt.number"), receipt.number]];
  rows.push(
    [t("receipt.issuedOn"), longDate(receipt.issuedAt, language, zone)],
    [t("receipt.giftDate"), longDate(receipt.giftDate, language, zone)],
    [t("receipt.receivedFrom"), receipt.donorName],
  );
  if (receipt.donorTaxId && issuer.organization === "museum") {
    rows.push([t("receipt.israeliId"), receipt.donorTaxId]);
  }
  rows.push(
    [t("receipt.amount"), amountInFigures(receipt.amount, receipt.currency, language)],
    [t("receipt.amountInWords"), amountInWords(receipt.amount, receipt.currency, language)],
    [
      t("receipt.paymentMethod"),
      receipt.cardLast4 ? t("receipt.card", { last4: isolate(receipt.cardLast4) }) : t("receipt.cardUnknown"),
    ],
    [t("receipt.giftType"), t(receipt.isMonthly ? "receipt.monthly" : "receipt.oneTime")],
  );
  // A gift at a membership level: what it bought and what of it is a donation (not on a credit).
  const membership = credit ? null : membershipLines(receipt, language, t);
  if (membership) rows.push(...membership.rows);
  if (receipt.reportNumber) rows.push([t("receipt.reportNumber"), receipt.reportNumber]);
  w.fields(rows);
  w.rule();

  if (!credit && issuer.organization === "museum" && issuer.section46Approval) {
    w.paragraph(t("receipt.section46Statement", { name: isolate(issuer.legalName) }), 10, { gap: 4 });
  }
  if (membership) w.paragraph(membership.statement, 10, { bold: true, gap: 4 });
  else if (!credit && receipt.currency === "USD") {
    w.paragraph(t("receipt.noGoods"), 10, { bold: true, gap: 4 });
  }
  w.paragraph(t("receipt.electronic"), 9, { color: MUTED, gap: 10 });

  w.paragraph(t("receipt.verify"), 10);
  w.y += 4;
  w.qr(verifyUrl, 96);
  // The address in full, for a reader without a camera: printed left to right whatever the language.
  for (const line of w.wrap(verifyUrl, 7, w.width, fonts.regular)) {
    w.page.drawText(line, {
      x: w.x(fonts.regular.widthOfTextAtSize(line, 7)),
      y: w.y,
      size: 7,
      font: fonts.regular,
      color: MUTED,
    });
    w.y -= 10;
  }
  return await pdf.save();
}
