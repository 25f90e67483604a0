/**
 * The receipt's font: DejaVu Sans (regular and bold), a free font (Bitstream Vera / DejaVu
 * licence) covering Latin, Hebrew and Cyrillic in one file, so every language's receipt, and a
 * Hebrew receipt naming an English legal name, uses one typeface. It comes from the npm package
 * `dejavu-fonts-ttf` (pinned in `deno.json`), installed with the app's other packages under
 * `node_modules/`, and is read from there once per process.
 *
 * Prepared once per process (per receipt worker), not per receipt: pdf-lib parses a font file anew
 * for every document it embeds it in, and with it every table a text's layout reads (GSUB, GPOS,
 * the glyphs), and lays a text out anew every time it is measured or drawn. That was most of a
 * receipt's time (`bench/README.md`, receipts). {@link receiptFontkit} hands pdf-lib each receipt
 * font already parsed, so the tables are read once, and keeps the layouts of the texts it lays
 * out: a label, a statement, the lines a paragraph is wrapped into, are laid out once per process
 * and language; only what is a receipt's own (names, numbers, dates, amounts) is laid out for it.
 * Each document still embeds its own subset of the glyphs it uses (pdf-lib's subsetting), so a
 * receipt stays small.
 *
 * @module
 */
import type { PDFContext, PDFDocument, PDFFont, PDFRawStream, PDFRef } from "pdf-lib";
import { textsUnder } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { visualFontkit } from "./bidi.ts";

/** The font files' bytes. */
export interface ReceiptFonts {
  regular: Uint8Array;
  bold: Uint8Array;
}

/** What pdf-lib's `registerFontkit` takes: something that parses font files. */
export type Fontkit = Parameters<PDFDocument["registerFontkit"]>[0];
type Font = ReturnType<Fontkit["create"]>;
type GlyphRun = ReturnType<Font["layout"]>;

/**
 * Layouts kept per font, least recently used out first: every label, statement and wrapped line
 * of the five languages' receipts (about a thousand) with room for the receipts' own texts.
 */
export const LAYOUTS_KEPT = 4_000;

let loading: Promise<ReceiptFonts> | undefined;
let loaded: ReceiptFonts | undefined;

const read = async (file: string): Promise<Uint8Array> => {
  const url = import.meta.resolve(`dejavu-fonts-ttf/ttf/${file}`);
  try {
    return await Deno.readFile(new URL(url));
  } catch (error) {
    throw new Error(`the receipt font ${file} is missing (${url}); run \`deno install\``, { cause: error });
  }
};

/**
 * The receipt's fonts, read on first use and kept.
 *
 * @example
 * ```ts
 * const { regular } = await receiptFonts();
 * ```
 */
export function receiptFonts(): Promise<ReceiptFonts> {
  loading ??= Promise.all([read("DejaVuSans.ttf"), read("DejaVuSans-Bold.ttf")]).then(([regular, bold]) =>
    loaded = { regular, bold }
  );
  // A failed read is not kept: the next receipt tries again.
  loading.catch(() => loading = undefined);
  return loading;
}

/**
 * The glyph positioning features (GPOS), off: pdf-lib draws a text's glyphs (after substitution:
 * ligatures, composed marks) at their own advance widths and never reads the positions a layout
 * computes, which were most of a layout's time. The glyphs are the same with or without them
 * (`fonts_test.ts`).
 */
export const NO_POSITIONING: Readonly<Record<string, boolean>> = {
  kern: false,
  mark: false,
  mkmk: false,
  curs: false,
  dist: false,
  abvm: false,
  blwm: false,
};

/**
 * `font`, keeping the layout of each text (with its options) it lays out, at most
 * {@link LAYOUTS_KEPT}; without features asked for, laid out with {@link NO_POSITIONING}.
 */
function keepingLayouts(font: Font): Font {
  // fontkit's layout takes script, language and direction too; pdf-lib's types name the first two.
  const layout = font.layout.bind(font) as (text: string, features?: unknown, ...rest: unknown[]) => GlyphRun;
  const kept = new Map<string, GlyphRun>();
  font.layout = (text, features, ...rest: unknown[]) => {
    const key = features === undefined && rest.length === 0
      ? text
      : `${text}\u0000${JSON.stringify([features ?? null, ...rest])}`;
    let run = kept.get(key);
    if (run) kept.delete(key); // re-inserted below: a Map's first key is its least recently used
    else {
      run = layout(text, features ?? NO_POSITIONING, ...rest);
      if (kept.size >= LAYOUTS_KEPT) kept.delete(kept.keys().next().value!);
    }
    kept.set(key, run);
    return run;
  };
  return font;
}

// Bound: the receipt's own font files only (`receiptFonts`, 2); any other font is not kept.
const parsed = new Map<Uint8Array, Font>();

/**
 * fontkit for pdf-lib (`pdf.registerFontkit`), prepared: each of the receipt's font files (the
 * very bytes {@link receiptFonts} answers) is parsed once per process and its layouts kept; any
 * other font is parsed anew. Either lays text out in the order given (`visualFontkit` in
 * `bidi.ts`: our text reaches it in visual order).
 *
 * @example
 * ```ts
 * pdf.registerFontkit(receiptFontkit);
 * const regular = await pdf.embedFont((await receiptFonts()).regular, { subset: true });
 * ```
 */
export const receiptFontkit: Fontkit = {
  create(bytes, postscriptName) {
    const own = postscriptName === undefined && (bytes === loaded?.regular || bytes === loaded?.bold);
    if (!own) return visualFontkit.create(bytes, postscriptName);
    let font = parsed.get(bytes);
    if (!font) {
      font = keepingLayouts(visualFontkit.create(bytes));
      parsed.set(bytes, font);
    }
    return font;
  },
};

/**
 * The characters a receipt in `lang` is likely to print, each once, in a fixed order: its labels
 * and statements, the printable ASCII (figures, dates, addresses, legal names, the verification
 * address) and the language's own letters.
 */
function receiptCharacters(lang: Lang): string {
  const texts = Object.values(textsUnder(lang, ["receipt", "refunds.credit"]));
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).join("");
  const letters = {
    en: "",
    pt: "ÁÀÂÃÉÊÍÓÔÕÚÜÇáàâãéêíóôõúüç",
    es: "ÁÉÍÓÚÜÑáéíóúüñ",
    he: range(0x5d0, 0x5ea),
    ru: range(0x410, 0x44f) + "Ёё",
  }[lang];
  return [...new Set(texts.join("") + range(0x21, 0x7e) + "₪" + letters)].join("");
}

// Bound: one string per site language (5 entries).
const characters = new Map<Lang, string>();

/** Font subsets kept, by font and glyphs: a few per language (a name's rare letter adds one). */
export const SUBSETS_KEPT = 64;

/** A subset as it is written into a PDF: the font program and its character map, compressed. */
interface WrittenSubset {
  fontFile: Uint8Array;
  cmap: Uint8Array;
}

const subsets = new Map<string, Partial<WrittenSubset>>();

/**
 * pdf-lib 1.17.1's subset embedder (`CustomFontSubsetEmbedder`), as far as this module reaches
 * into it (its types call these private): the subset's glyphs in the subset's order, and the two
 * streams it writes for them into a document.
 */
interface SubsetEmbedder {
  glyphs: { id: number }[];
  embedFontStream(context: PDFContext): Promise<PDFRef>;
  embedUnicodeCmap(context: PDFContext): PDFRef;
}

/**
 * `font`'s subset written (encoded, compressed) once per set of glyphs in their order and kept,
 * instead of once per receipt.
 */
function keepSubsets(font: PDFFont, name: string): void {
  const embedder = (font as unknown as { embedder: SubsetEmbedder }).embedder;
  const written = () => {
    const key = `${name}:${embedder.glyphs.map((glyph) => glyph.id).join(",")}`;
    let subset = subsets.get(key);
    if (!subset) {
      if (subsets.size >= SUBSETS_KEPT) subsets.delete(subsets.keys().next().value!);
      subsets.set(key, subset = {});
    }
    return subset;
  };
  const kept = (context: PDFContext, bytes: Uint8Array) =>
    context.register(context.stream(bytes, { Filter: "FlateDecode" }));
  const embedFontStream = embedder.embedFontStream.bind(embedder);
  embedder.embedFontStream = async (context) => {
    const subset = written();
    if (subset.fontFile) return kept(context, subset.fontFile);
    const ref = await embedFontStream(context);
    subset.fontFile = (context.lookup(ref) as PDFRawStream).getContents();
    return ref;
  };
  const embedUnicodeCmap = embedder.embedUnicodeCmap.bind(embedder);
  embedder.embedUnicodeCmap = (context) => {
    const subset = written();
    if (subset.cmap) return kept(context, subset.cmap);
    const ref = embedUnicodeCmap(context);
    subset.cmap = (context.lookup(ref) as PDFRawStream).getContents();
    return ref;
  };
}

/**
 * The receipt's fonts embedded in `pdf`, prepared once per process: parsed once
 * ({@link receiptFontkit}), and each a subset of the glyphs it draws, as pdf-lib makes it, but
 * written (encoded and compressed, with its character map) once for every receipt with the same
 * glyphs. The regular font's subset
 * starts with the glyphs of every character a receipt in `lang` is likely to print, in one order,
 * so receipts with different names and amounts share it; a character beyond them (a rare letter
 * in a name) makes a subset of its own. The bold font draws only labels and the legal name: its
 * glyphs are the same from one receipt to the next. A receipt is a few kilobytes larger for it.
 *
 * @example
 * ```ts
 * const { regular, bold } = await embedReceiptFonts(pdf, "he");
 * ```
 */
export async function embedReceiptFonts(
  pdf: PDFDocument,
  lang: Lang,
): Promise<{ regular: PDFFont; bold: PDFFont }> {
  const files = await receiptFonts();
  pdf.registerFontkit(receiptFontkit);
  const regular = await pdf.embedFont(files.regular, { subset: true });
  const bold = await pdf.embedFont(files.bold, { subset: true });
  let known = characters.get(lang);
  if (known === undefined) characters.set(lang, known = receiptCharacters(lang));
  regular.encodeText(known);
  keepSubsets(regular, "regular");
  keepSubsets(bold, "bold");
  return { regular, bold };
}
