/**
 * The receipt's prepared font: parsed once per process, layouts kept, and laid out without glyph
 * positioning, which changes none of the glyphs pdf-lib draws (every text of a receipt in the five
 * languages, and names in each script, checked against `visualFontkit`'s layout); each font's subset
 * written once for documents with other names and figures, and anew for a letter beyond the
 * language's.
 */
import assert from "node:assert/strict";
import { RESOURCES } from "@/lib/core/i18n.ts";
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from "pdf-lib";
import { pdfText } from "@/tests/helpers/pdf.ts";
import { visualFontkit } from "./bidi.ts";
import { embedReceiptFonts, receiptFontkit, receiptFonts } from "./fonts.ts";

/** Every text a receipt prints, in the five languages (`receipt`, `refunds`), and names. */
function texts(): string[] {
  const all: string[] = ["Ada Lovelace", "עדה לאבלייס", "Софья Ковалевская", "João Guimarães", "Iñés Muñoz"];
  const walk = (value: unknown) => {
    if (typeof value === "string") all.push(value);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  for (const lang of Object.values(RESOURCES)) walk([lang.receipt, lang.refunds]);
  return all;
}

Deno.test("receiptFontkit: each receipt font parsed once, its layouts kept; other fonts as fontkit parses them", async () => {
  const { regular, bold } = await receiptFonts();
  const font = receiptFontkit.create(regular);
  assert.equal(receiptFontkit.create(regular), font, "parsed once");
  assert.notEqual(receiptFontkit.create(bold), font);
  assert.equal(font.layout("Donation receipt"), font.layout("Donation receipt"), "laid out once");
  const copy = regular.slice();
  assert.notEqual(
    receiptFontkit.create(copy),
    receiptFontkit.create(copy),
    "not the receipt's bytes: not kept",
  );
});

Deno.test("receiptFontkit: laid out without positioning, every text has the glyphs fontkit gives it", async () => {
  const files = await receiptFonts();
  for (const bytes of [files.regular, files.bold]) {
    const prepared = receiptFontkit.create(bytes);
    const plain = visualFontkit.create(bytes);
    for (const text of texts()) {
      const ids = (font: typeof plain) => font.layout(text).glyphs.map((g) => g.id).join();
      const widths = (font: typeof plain) => font.layout(text).glyphs.reduce((w, g) => w + g.advanceWidth, 0);
      assert.equal(ids(prepared), ids(plain), text);
      assert.equal(widths(prepared), widths(plain), text);
    }
  }
});

/** A one-page document of `lines` in the receipt's regular font, in `lang`; and its font program. */
async function documentOf(lang: "en" | "he", lines: string[]) {
  const pdf = await PDFDocument.create();
  const { regular } = await embedReceiptFonts(pdf, lang);
  const page = pdf.addPage();
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 700 - 20 * i, size: 12, font: regular }));
  const bytes = await pdf.save();
  const saved = await PDFDocument.load(bytes);
  // The font programs, through each font descriptor's FontFile2.
  const programs = saved.context.enumerateIndirectObjects()
    .map(([, object]) => object instanceof PDFDict ? object.get(PDFName.of("FontFile2")) : undefined)
    .filter((ref) => ref !== undefined)
    .map((ref) => saved.context.lookup(ref) as PDFRawStream);
  return { bytes, program: programs.map((p) => p.getContents().join()).join("|") };
}

Deno.test("embedReceiptFonts: one subset for other names and figures, another for a letter beyond them", async () => {
  const a = await documentOf("en", ["Ada Lovelace", "₪180.50, May 10, 2026"]);
  const b = await documentOf("en", ["Grace Hopper", "$25.00, June 1, 2027"]);
  const c = await documentOf("en", ["Zoë Øverli", "₪1.00"]);
  assert.ok(a.program.length > 1000, "the document has its font program");
  assert.equal(a.program, b.program, "the same font program: written once");
  assert.notEqual(a.program, c.program, "Ø is beyond the language's letters");
  assert.match(await pdfText(a.bytes), /Ada Lovelace/);
  assert.match(await pdfText(b.bytes), /Grace Hopper/);
  assert.match(await pdfText(c.bytes), /Zoë Øverli/);
  const hebrew = await documentOf("he", ["שלום"]);
  assert.notEqual(hebrew.program, a.program, "each language its own");
});
