/**
 * Which labels a chart's time axis shows, so that no two of them overlap in any language: each
 * label's width is estimated from its characters at the chart's font size (generously, for the
 * widest of the usual system sans-serif fonts), and the chart keeps the newest label and every
 * n-th before it, the smallest n whose labels have room. Fewer labels, never smaller type. Used by
 * the dashboard's daily chart (in the browser) and the monthly report's chart (on the server).
 *
 * @module
 */

/** Width per character, in ems, by kind; above the widths of DejaVu Sans, Arial and Segoe UI. */
const EM = { narrow: 0.4, space: 0.34, digit: 0.66, lower: 0.64, upper: 0.78, wide: 1.02, other: 0.72 };
const NARROW = /[.,:;'’׳״!|()[\]\-ilIjtfr1]/;
const WIDE = /[mwMWшщжюмыШЩЖЮМЫ]/;

/**
 * The estimated width of `text` set at `fontSize` (in the same units).
 *
 * @example
 * ```ts
 * estimateTextWidth("Sep", 12) > 20; // true
 * ```
 */
export function estimateTextWidth(text: string, fontSize: number): number {
  let ems = 0;
  for (const c of text) {
    if (/[\u200e\u200f\u2066-\u2069]/.test(c)) continue; // direction marks take no room
    if (/\s/.test(c)) ems += EM.space;
    else if (NARROW.test(c)) ems += EM.narrow;
    else if (WIDE.test(c)) ems += EM.wide;
    else if (/\d/.test(c)) ems += EM.digit;
    else if (/[\p{Ll}\p{Lo}]/u.test(c)) ems += EM.lower; // Hebrew letters are Lo
    else if (/\p{Lu}/u.test(c)) ems += EM.upper;
    else ems += EM.other;
  }
  return ems * fontSize;
}

/** The widths a chart is laid out at: a phone's box to a wide screen's; 720 when unknown. */
export const CHART_WIDTHS = { min: 280, max: 1200, default: 720 } as const;

/**
 * The width to lay a chart out at for a box `measured` CSS pixels wide (720 while unknown): the
 * chart is drawn in CSS pixels, so its type keeps its size on a phone.
 *
 * @example
 * ```ts
 * chartWidth(358.4); // 358
 * chartWidth(null); // 720
 * ```
 */
export function chartWidth(measured: number | null | undefined): number {
  if (!measured || !Number.isFinite(measured)) return CHART_WIDTHS.default;
  return Math.min(CHART_WIDTHS.max, Math.max(CHART_WIDTHS.min, Math.round(measured)));
}

/**
 * `text` broken at its spaces into lines of at most `maxWidth` (estimated at `fontSize`), for a
 * chart's heading on a narrow screen: the same type on more lines. A word wider than the line
 * keeps a line of its own; an isolated run (U+2066..U+2068 to U+2069: an amount, a name) is never
 * broken, so each line stays well formed for the bidirectional algorithm.
 *
 * @example
 * ```ts
 * wrapText("Shekels (ILS) — total ₪12,616.67, donations: 2", 250, 14).length; // 2
 * ```
 */
export function wrapText(text: string, maxWidth: number, fontSize: number): string[] {
  const words: string[] = [];
  let depth = 0;
  for (const part of text.split(" ")) {
    if (depth > 0) words[words.length - 1] += ` ${part}`;
    else words.push(part);
    for (const c of part) {
      if (/[\u2066-\u2068]/.test(c)) depth++;
      else if (c === "\u2069" && depth > 0) depth--;
    }
  }
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.at(-1);
    if (last !== undefined && estimateTextWidth(`${last} ${word}`, fontSize) <= maxWidth) {
      lines[lines.length - 1] = `${last} ${word}`;
    } else lines.push(word);
  }
  return lines.length ? lines : [""];
}

/** A label the axis shows: the index of its slot, its centre and its lines of text (top to bottom). */
export interface AxisLabel {
  index: number;
  /** The slot's centre, moved inwards as far as the label needs to stay within the bounds. */
  x: number;
  lines: readonly string[];
}

/** How to fit the labels. */
export interface AxisFit {
  fontSize: number;
  /** The label steps to try, smallest first (every day, every 7th day, …); when none fits, the newest label alone. */
  steps: readonly number[];
  /** The room the labels may take: from, to (a label at an edge moves inwards to stay in). */
  bounds: readonly [number, number];
  /** The least room between two labels; half an em when not given. */
  gap?: number;
}

/**
 * The labels to show under slots whose centres are `centers` (in time order, oldest first; either
 * direction on the page): the newest and every n-th before it, for the smallest of `fit.steps`
 * whose labels, centred on their slots (moved inwards to stay within `fit.bounds`), do not overlap
 * (with `fit.gap` between). `lines(i, previous)` gives slot `i`'s label, `previous` being the slot of the label
 * before it (older) on the axis, so a label can add what changed since (the year).
 *
 * @example
 * ```ts
 * fitAxisLabels([10, 30, 50], (i) => [`day ${i}`], { fontSize: 12, steps: [1, 2], bounds: [0, 60] });
 * // [{ index: 0, x: 19.…, lines: ["day 0"] }, { index: 2, x: 40.…, lines: ["day 2"] }]
 * ```
 */
export function fitAxisLabels(
  centers: readonly number[],
  lines: (index: number, previous: number | undefined) => readonly string[],
  fit: AxisFit,
): AxisLabel[] {
  const gap = fit.gap ?? fit.fontSize / 2;
  const last = centers.length - 1;
  const halfOf = (text: readonly string[]) =>
    Math.max(0, ...text.map((line) => estimateTextWidth(line, fit.fontSize))) / 2;
  const label = (index: number, previous: number | undefined): AxisLabel => {
    const text = lines(index, previous);
    const half = halfOf(text);
    const x = Math.min(Math.max(centers[index], fit.bounds[0] + half), fit.bounds[1] - half);
    return { index, x, lines: text };
  };
  const fits = (labels: AxisLabel[]) => {
    const boxes = labels.map((l) => [l.x - halfOf(l.lines), l.x + halfOf(l.lines)])
      .sort((a, b) => a[0] - b[0]);
    return boxes.every(([from], i) => i === 0 || from >= boxes[i - 1][1] + gap);
  };
  for (const step of fit.steps) {
    const kept = centers.map((_, i) => i).filter((i) => (last - i) % step === 0);
    const labels = kept.map((index, k) => label(index, kept[k - 1]));
    if (fits(labels)) return labels;
  }
  return last < 0 ? [] : [label(last, undefined)];
}
