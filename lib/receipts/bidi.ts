/**
 * Right-to-left text for the PDF: pdf-lib draws glyphs left to right, as given, so a Hebrew line is
 * put into visual order first with the Unicode Bidirectional Algorithm (`bidi-js`): runs at odd
 * embedding levels reversed, brackets mirrored, so Hebrew reads right to left while numbers and
 * Latin words inside it (a receipt number, a museum's English name) stay left to right.
 * Hebrew needs no glyph shaping (unlike Arabic), so visual order is all it takes.
 *
 * @module
 */

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
const drawable = (text: string) => [...text].filter((c) => !CONTROLS.has(c.codePointAt(0)!)).join("");

/**
 * `text` (one line, logical order) in visual order for a paragraph of direction `dir`.
 *
 * @example
 * ```ts
 * visualOrder("קבלה 123", "rtl"); // "123 הלבק"
 * ```
 */
export function visualOrder(text: string, dir: "ltr" | "rtl"): string {
  const levels = bidi.getEmbeddingLevels(text, dir);
  const chars = [...text].length === text.length ? text.split("") : null;
  // Surrogate pairs would be split by index-based reversal; the receipt's scripts have none.
  if (chars === null) return drawable(text);
  for (const [index, replacement] of bidi.getMirroredCharactersMap(text, levels.levels)) {
    chars[index] = replacement;
  }
  for (const [start, end] of bidi.getReorderSegments(text, levels)) {
    const reversed = chars.slice(start, end + 1).reverse();
    chars.splice(start, reversed.length, ...reversed);
  }
  return drawable(chars.join(""));
}
