/**
 * Reading a PDF page as a person does, not as a text extractor does: every glyph where it stands on
 * the page (PDF.js's operator list through `unpdf`, positions from the text and transformation
 * matrices), glyphs on one baseline grouped into lines, a line split into pieces where a gap as wide
 * as a column separates them (a label and its value), and each piece read in its line's direction:
 * a right-to-left line from the right, Hebrew letters right to left, a number or a Latin phrase
 * inside it left to right.
 *
 * Extractors (`pdftotext`, PDF.js's text content) reorder right-to-left text themselves, so a line
 * drawn in the wrong order still reads back right; this reader only takes the glyphs' positions.
 * Its reading rules are its own (a reader's, not the Unicode algorithm the renderer uses): a number
 * is digits joined by single separators (`2026`, `180.50`, `12-3456789`), a number touching a
 * Latin letter belongs to its word (`IL-2026-000123`), spaces and punctuation between two Latin
 * words go with them, and brackets read from the right are read mirrored.
 *
 * @module
 */
import { getDocumentProxy, getResolvedPDFJS } from "unpdf";

/** One glyph on the page: its text, left edge, width and baseline, in points. */
export interface Glyph {
  char: string;
  x: number;
  width: number;
  y: number;
  size: number;
}

/** A piece of a line: glyphs left to right, close together. */
export type Piece = Glyph[];

type Matrix = [number, number, number, number, number, number];
const times = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];

/** Every glyph of page `number` (1-based), in the order drawn, each where it stands. */
export async function pageGlyphs(pdf: Uint8Array, number = 1): Promise<Glyph[]> {
  const { OPS } = await getResolvedPDFJS();
  const page = await (await getDocumentProxy(pdf.slice())).getPage(number);
  const { fnArray, argsArray } = await page.getOperatorList();
  const glyphs: Glyph[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const saved: Matrix[] = [];
  let line: Matrix = [1, 0, 0, 1, 0, 0];
  let text: Matrix = line;
  let size = 0, charSpacing = 0, wordSpacing = 0, scale = 1, leading = 0;
  const moveTo = (tx: number, ty: number) => (line = times([1, 0, 0, 1, tx, ty], line), text = line);
  for (const [i, fn] of fnArray.entries()) {
    const args = argsArray[i];
    if (fn === OPS.save) saved.push(ctm);
    else if (fn === OPS.restore) ctm = saved.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = times(args as Matrix, ctm);
    else if (fn === OPS.beginText) line = text = [1, 0, 0, 1, 0, 0];
    else if (fn === OPS.setFont) size = args[1];
    else if (fn === OPS.setCharSpacing) charSpacing = args[0];
    else if (fn === OPS.setWordSpacing) wordSpacing = args[0];
    else if (fn === OPS.setHScale) scale = args[0] / 100;
    else if (fn === OPS.setLeading) leading = args[0];
    else if (fn === OPS.setTextMatrix) line = text = [...Object.values(args[0] as object)] as Matrix;
    else if (fn === OPS.moveText) moveTo(args[0], args[1]);
    else if (fn === OPS.setLeadingMoveText) (leading = -args[1], moveTo(args[0], args[1]));
    else if (fn === OPS.nextLine) moveTo(0, -leading);
    else if (fn === OPS.showText) {
      for (const glyph of args[0] as ({ unicode: string; width: number; isSpace: boolean } | number)[]) {
        // A number in a TJ array moves the pen back by thousandths of the size.
        const advance = typeof glyph === "number"
          ? -glyph / 1000 * size * scale
          : (glyph.width / 1000 * size + charSpacing + (glyph.isSpace ? wordSpacing : 0)) * scale;
        const at = times(text, ctm);
        if (typeof glyph !== "number") {
          glyphs.push({
            char: glyph.unicode,
            x: at[4],
            width: advance * Math.hypot(at[0], at[1]),
            y: at[5],
            size,
          });
        }
        text = times([1, 0, 0, 1, advance, 0], text);
      }
    }
  }
  return glyphs;
}

/**
 * The page's lines top down, each split into pieces left to right where glyphs stand further apart
 * than `gap` times their size (the columns of a label and its value).
 */
export function pageLines(glyphs: Glyph[], gap = 0.8): Piece[][] {
  const rows = new Map<number, Glyph[]>();
  for (const g of glyphs) {
    const y = Math.round(g.y * 2) / 2;
    rows.set(y, [...rows.get(y) ?? [], g]);
  }
  return [...rows.entries()].sort(([a], [b]) => b - a).map(([, row]) => {
    const sorted = row.sort((a, b) => a.x - b.x);
    const pieces: Piece[] = [];
    for (const g of sorted) {
      const last = pieces.at(-1)?.at(-1);
      if (last && g.x - (last.x + last.width) <= gap * g.size) pieces.at(-1)!.push(g);
      else pieces.push([g]);
    }
    return pieces;
  });
}

type Kind = "R" | "L" | "D" | "N";
const HEBREW = (c: string) => {
  const code = c.codePointAt(0)!;
  return (code >= 0x0590 && code <= 0x08ff) || (code >= 0xfb1d && code <= 0xfdff) ||
    (code >= 0xfe70 && code <= 0xfeff);
};
const kindOf = (c: string): Kind =>
  HEBREW(c) ? "R" : /\p{L}|\p{M}/u.test(c) ? "L" : /\p{Nd}/u.test(c) ? "D" : "N";
const SEPARATORS = new Set([".", ",", ":", "/", "-", "\u00a0"]);
const MIRROR: Record<string, string> = {
  "(": ")",
  ")": "(",
  "[": "]",
  "]": "[",
  "{": "}",
  "}": "{",
  "<": ">",
  ">": "<",
  "«": "»",
  "»": "«",
};

/**
 * The direction a person reads a piece in: text with a Hebrew letter as Hebrew, right to left;
 * text of other letters only (a Latin address on a Hebrew receipt) left to right; figures and signs
 * alone in the document's direction `dir`.
 */
export function pieceDir(piece: Piece, dir: "ltr" | "rtl"): "ltr" | "rtl" {
  const kinds = piece.map((g) => kindOf(g.char));
  return kinds.includes("R") ? "rtl" : kinds.includes("L") ? "ltr" : dir;
}

/**
 * A piece read as a person reads it in a line of direction `dir` (see {@link pieceDir}): the text
 * in reading order, no-break spaces as spaces.
 *
 * @example
 * ```ts
 * readPiece(piece, "rtl"); // "29 במאי 2026", whose glyphs stand as "2026 יאמב 29"
 * ```
 */
export function readPiece(piece: Piece, dir: "ltr" | "rtl"): string {
  const chars = piece.map((g) => g.char);
  const kinds = chars.map(kindOf);
  // A single separator between two digits is part of the number.
  for (let i = 1; i < kinds.length - 1; i++) {
    if (kinds[i] === "N" && SEPARATORS.has(chars[i]) && kinds[i - 1] === "D" && kinds[i + 1] === "D") {
      kinds[i] = "D";
    }
  }
  // A percent sign touching a number (`60%`, as Unicode's bidi treats it: a terminator) is part of it.
  for (let i = 0; i < kinds.length; i++) {
    if (chars[i] === "%" && (kinds[i - 1] === "D" || kinds[i + 1] === "D")) kinds[i] = "D";
  }
  // A number touching a Latin letter (at most one separator between) is part of its word.
  for (let changed = true; changed;) {
    changed = false;
    for (let i = 0; i < kinds.length; i++) {
      if (kinds[i] !== "D") continue;
      const near = [
        i - 1,
        i + 1,
        kinds[i - 1] === "N" && SEPARATORS.has(chars[i - 1]) ? i - 2 : -1,
        kinds[i + 1] === "N" && SEPARATORS.has(chars[i + 1]) ? i + 2 : -1,
      ];
      if (near.some((j) => kinds[j] === "L")) (kinds[i] = "L", changed = true);
    }
  }
  // In a left-to-right line a number is Latin text unless it stands among right-to-left words.
  const base = dir === "rtl" ? "R" : "L";
  if (base === "L") {
    const amongR = kinds.map((k, i) =>
      k === "D" && kinds.slice(0, i).findLast((k) => k === "L" || k === "R") === "R" &&
      kinds.slice(i + 1).find((k) => k === "L" || k === "R") === "R"
    );
    amongR.forEach((among, i) => kinds[i] === "D" && !among && (kinds[i] = "L"));
  }
  // A number is read left to right, but among right-to-left words it counts as one of them: the
  // spaces and signs around it go with the right-to-left text.
  const strong = (k: Kind) => (k === "D" ? "R" : k);
  const high = base === "R" ? 2 : 0;
  const levels = kinds.map((k) => (k === "L" ? high : k === "R" ? 1 : 2));
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] !== "N") continue;
    let end = i;
    while (end + 1 < kinds.length && kinds[end + 1] === "N") end++;
    const before = i > 0 ? strong(kinds[i - 1]) : base;
    const after = end + 1 < kinds.length ? strong(kinds[end + 1]) : base;
    for (let j = i; j <= end; j++) {
      levels[j] = before === after && before === "R" ? 1 : before === after ? high : base === "R" ? 1 : 0;
    }
    i = end;
  }
  // Read: from the highest level down to 1, every run at that level or higher turns around.
  const order = chars.map((_, i) => i);
  for (let level = Math.max(...levels, 0); level >= 1; level--) {
    for (let i = 0; i < order.length; i++) {
      if (levels[order[i]] < level) continue;
      let end = i;
      while (end + 1 < order.length && levels[order[end + 1]] >= level) end++;
      order.splice(i, end - i + 1, ...order.slice(i, end + 1).reverse());
      i = end;
    }
  }
  return order.map((i) => (levels[i] % 2 === 1 ? MIRROR[chars[i]] ?? chars[i] : chars[i])).join("")
    .replaceAll("\u00a0", " ").replaceAll("\u202f", " ");
}

/**
 * Every piece of page 1 read in direction `dir`, lines top down, pieces of a line in reading order
 * (from the right in a right-to-left document).
 */
export async function readPage(pdf: Uint8Array, dir: "ltr" | "rtl"): Promise<string[][]> {
  return pageLines(await pageGlyphs(pdf)).map((pieces) => {
    const read = pieces.map((p) => readPiece(p, pieceDir(p, dir)));
    return dir === "rtl" ? read.reverse() : read;
  });
}
