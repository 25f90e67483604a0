/**
 * Drawing a member card (`card_face.ts` places it): as a PDF page with pdf-lib, in DejaVu Sans
 * (the receipts' font, subset), and as a PNG: the same layout written as SVG, every glyph an
 * outline from the same font (so the PNG's letters are the PDF's, in the same visual order, with no
 * font handling left to the rasteriser), rasterised by resvg compiled to WebAssembly
 * (`@resvg/resvg-wasm`: no native code, runs wherever Deno does).
 *
 * Hebrew is put in visual order once (`lib/core/pdf/bidi.ts`) and drawn in that order by both.
 * Only in a card worker (`card_pool.ts`): a card's drawing never holds up the event loop.
 *
 * @module
 */
import { PDFDocument, rgb } from "pdf-lib";
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import { visualOrder } from "@/lib/core/pdf/bidi.ts";
import { embedReceiptFonts, receiptFontkit, receiptFonts } from "@/lib/core/pdf/fonts.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import {
  CARD_COLORS,
  type CardLayout,
  layoutCard,
  type MeasureText,
  type MemberCardFace,
  qrRuns,
} from "./card_face.ts";

type Font = ReturnType<typeof receiptFontkit.create>;

let fontsParsed: Promise<{ regular: Font; bold: Font }> | undefined;
const parsedFonts = () =>
  fontsParsed ??= receiptFonts().then((files) => ({
    regular: receiptFontkit.create(files.regular),
    bold: receiptFontkit.create(files.bold),
  }));

const inWorker = () => "WorkerGlobalScope" in globalThis;
function onlyInWorker() {
  if (!inWorker()) {
    throw new Error(
      "a member card is drawn by a card worker (lib/memberships/card_pool.ts), never on the event loop",
    );
  }
}

/** The measure both drawings use: the font's advance widths of the text in visual order. */
function measureWith(fonts: { regular: Font; bold: Font }, dir: "ltr" | "rtl"): MeasureText {
  return (text, size, bold) => {
    const font = bold ? fonts.bold : fonts.regular;
    return (font.layout(visualOrder(text, dir)).advanceWidth * size) / font.unitsPerEm;
  };
}

/** The left x of a run whose start side is at `x`. */
const leftOf = (layout: CardLayout, x: number, width: number) => layout.dir === "rtl" ? x - width : x;

/**
 * The card as a one-page PDF, the page the card's size.
 *
 * @example
 * ```ts
 * const pdf = await renderCardPdf(face); // in a card worker
 * ```
 */
export async function renderCardPdf(face: MemberCardFace): Promise<Uint8Array> {
  onlyInWorker();
  const layout = layoutCard(face, measureWith(await parsedFonts(), face.dir));
  const pdf = await PDFDocument.create();
  const fonts = await embedReceiptFonts(pdf, face.lang as Lang);
  pdf.setTitle(`${face.title}: ${face.name}`);
  pdf.setLanguage(face.lang);
  pdf.setAuthor(face.museum);
  pdf.setCreator(face.museum);
  pdf.setProducer("museum donations (pdf-lib)");
  // A fixed date: the same card draws the same bytes.
  pdf.setCreationDate(new Date(0));
  pdf.setModificationDate(new Date(0));
  const page = pdf.addPage([layout.width, layout.height]);
  const top = (y: number) => layout.height - y;
  page.drawRectangle({
    x: 0,
    y: top(layout.band.height),
    width: layout.width,
    height: layout.band.height,
    color: rgb(...CARD_COLORS.band),
  });
  for (const run of layout.texts) {
    const font = run.bold ? fonts.bold : fonts.regular;
    const visual = visualOrder(run.text, layout.dir);
    const width = font.widthOfTextAtSize(visual, run.size);
    page.drawText(visual, {
      x: leftOf(layout, run.x, width),
      y: top(run.y),
      size: run.size,
      font,
      color: rgb(...CARD_COLORS[run.color]),
    });
  }
  for (const [x, y, w, h] of qrRuns(layout.qr)) {
    page.drawRectangle({ x, y: top(y + h), width: w, height: h, color: rgb(0, 0, 0) });
  }
  return await pdf.save();
}

const hex = (c: readonly number[]) =>
  `#${c.map((v) => Math.round(v * 255).toString(16).padStart(2, "0")).join("")}`;
const num = (n: number) => Number(n.toFixed(3));

/** The card as SVG, every glyph an outline path (no text left to the rasteriser). */
export function cardSvg(layout: CardLayout, fonts: { regular: Font; bold: Font }): string {
  const parts: string[] = [
    `<rect width="${layout.width}" height="${layout.height}" fill="#ffffff"/>`,
    `<rect width="${layout.width}" height="${layout.band.height}" fill="${hex(CARD_COLORS.band)}"/>`,
  ];
  for (const run of layout.texts) {
    const font = run.bold ? fonts.bold : fonts.regular;
    const glyphs = font.layout(visualOrder(run.text, layout.dir));
    const scale = run.size / font.unitsPerEm;
    let x = leftOf(layout, run.x, glyphs.advanceWidth * scale);
    const paths: string[] = [];
    for (const glyph of glyphs.glyphs) {
      const d = glyph.path.toSVG();
      if (d) {
        paths.push(
          `<path transform="translate(${num(x)} ${num(run.y)}) scale(${num(scale)} ${
            num(-scale)
          })" d="${d}"/>`,
        );
      }
      x += glyph.advanceWidth * scale;
    }
    parts.push(`<g fill="${hex(CARD_COLORS[run.color])}">${paths.join("")}</g>`);
  }
  const rects = qrRuns(layout.qr).map(([x, y, w, h]) =>
    `M${num(x)} ${num(y)}h${num(w)}v${num(h)}h${num(-w)}z`
  );
  parts.push(`<path fill="#000000" shape-rendering="crispEdges" d="${rects.join("")}"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}">${
    parts.join("")
  }</svg>`;
}

let wasmReady: Promise<void> | undefined;
const resvgReady = () =>
  wasmReady ??= Deno.readFile(new URL(import.meta.resolve("@resvg/resvg-wasm/index_bg.wasm"))).then(initWasm);

/** How many pixels a point of the card is in its PNG: 972 × 612 px, about 216 dpi. */
export const PNG_SCALE = 3;

/**
 * The card as a PNG, {@link PNG_SCALE} pixels a point.
 *
 * @example
 * ```ts
 * const png = await renderCardPng(face); // in a card worker
 * ```
 */
export async function renderCardPng(face: MemberCardFace): Promise<Uint8Array> {
  onlyInWorker();
  const fonts = await parsedFonts();
  await resvgReady();
  const svg = cardSvg(layoutCard(face, measureWith(fonts, face.dir)), fonts);
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: PNG_SCALE },
    font: { loadSystemFonts: false },
  });
  try {
    return resvg.render().asPng();
  } finally {
    resvg.free();
  }
}
