/**
 * Right-to-left text for the PDF, reordered exactly once. pdf-lib draws glyphs left to right in
 * the order it gets them, so a Hebrew line is put into visual order here with the Unicode
 * Bidirectional Algorithm (`bidi-js`): runs at odd embedding levels reversed, brackets mirrored,
 * so Hebrew reads right to left while numbers and Latin words inside it (a receipt number, a date's
 * year, a museum's English name) stay left to right. Values set into a line are isolated
 * (`isolate` in `lib/shared/languages.ts`) and take their own direction.
 *
 * The second place that could reorder is fontkit's layout, which pdf-lib calls to turn a string
 * into glyphs: it guesses the string's script from its first letter and, for a right-to-left
 * script, reverses the whole run (fontkit's `OTLayoutEngine.position`). On a line already in visual
 * order that undid our pass (each Hebrew word's letters and the line's numbers came out reversed),
 * so the fonts are made through {@link visualFontkit}, whose layout keeps the order given.
 *
 * Hebrew needs no glyph shaping (unlike Arabic), so visual order is all it takes; a letter with
 * points (niqqud) stays one cluster, its marks after it, as fontkit's mark positioning expects.
 *
 * @module
 */

import fontkit from "@pdf-lib/fontkit";
import bidiFactory, { type Bidi } from "bidi-js";

// bidi-js is CommonJS: its default export is the factory, which its types describe as a module.
const bidi = (bidiFactory as unknown as () => Bidi)();

/** Directional marks, embeddings and isolates: they steer the algorithm but have no glyph to draw. */
const CONTROLS = new Set([
  0x200e,
  0x200f,
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e,
  0x2066,
  0x2067,
  0x2068,
  0x2069,
  0x061c,
]);

/**
 * `text` without directional controls: what is drawn, and so what to measure.
 *
 * @example
 * ```ts
 * drawable("\u200f180.50 \u200f₪"); // "180.50 ₪"
 * ```
 */
export function drawable(text: string): string {
  return [...text].filter((c) => !CONTROLS.has(c.codePointAt(0)!)).join("");
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * `text` (one line, logical order) in visual order for a paragraph of direction `dir`, without
 * directional controls.
 *
 * @example
 * ```ts
 * visualOrder("קבלה 123", "rtl"); // "123 הלבק"
 * ```
 */
export function visualOrder(text: string, dir: "ltr" | "rtl"): string {
  const levels = bidi.getEmbeddingLevels(text, dir);
  const units = text.split("");
  for (const [index, replacement] of bidi.getMirroredCharactersMap(text, levels.levels)) {
    units[index] = replacement;
  }
  // Reverse whole clusters (a letter and its marks, a surrogate pair), not code units: the
  // algorithm gives a cluster's units one level, so every segment's ends fall between clusters.
  const clusters: string[] = [];
  const clusterOf: number[] = [];
  for (const { segment, index } of graphemes.segment(text)) {
    for (let i = 0; i < segment.length; i++) clusterOf.push(clusters.length);
    clusters.push(units.slice(index, index + segment.length).join(""));
  }
  for (const [start, end] of bidi.getReorderSegments(text, levels)) {
    const [from, to] = [clusterOf[start], clusterOf[end]];
    clusters.splice(from, to - from + 1, ...clusters.slice(from, to + 1).reverse());
  }
  return drawable(clusters.join(""));
}

type FontkitFont = ReturnType<typeof fontkit.create>;
type Layout = (
  text: string,
  features?: unknown,
  script?: string,
  language?: string,
  direction?: string,
) => ReturnType<FontkitFont["layout"]>;

/**
 * fontkit for `PDFDocument.registerFontkit`, whose fonts lay out every string left to right in the
 * order given: our text reaches it in visual order already (see the module's comment).
 *
 * @example
 * ```ts
 * pdf.registerFontkit(visualFontkit);
 * ```
 */
export const visualFontkit = {
  create(buffer: Uint8Array, postscriptName?: string): FontkitFont {
    const font = fontkit.create(buffer, postscriptName);
    const layout = (font.layout as Layout).bind(font);
    // fontkit's layout(string, features, script, language, direction): the script is still
    // detected (for the font's substitutions), the direction is fixed.
    font.layout =
      ((text: string, features?: unknown) =>
        layout(text, features, undefined, undefined, "ltr")) as FontkitFont["layout"];
    return font;
  },
};
