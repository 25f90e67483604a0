/**
 * What a member card shows and where (issue 27, item 3): one layout, drawn twice, as a PDF page
 * (`card_pdf.ts`) and as a PNG (`card_png.ts`), so the two never differ. The words come translated
 * and the values formatted (`card.ts`, on the server); this module only places them: a band with the
 * museum's name, the cardholder's name, the level, the member number and the valid-until date on the
 * start side of the language's direction, the QR code of the signed token on the end side.
 *
 * Pure (no font, no drawing library): the renderers pass their text measure in.
 *
 * @module
 */
import QRCode from "qrcode";

/** What a card says, translated and formatted. */
export interface MemberCardFace {
  lang: string;
  dir: "ltr" | "rtl";
  /** The museum's name (its identity, in the card's language). */
  museum: string;
  /** "Member card", translated. */
  title: string;
  /** The cardholder's name. */
  name: string;
  /** The level's name. */
  level: string;
  numberLabel: string;
  number: string;
  validLabel: string;
  /** The valid-until date, written in the card's language. */
  validUntil: string;
  /** The signed token the QR code holds (`card_token.ts`). */
  token: string;
}

/** One run of text: where its start side is, its baseline from the top, how big and how bold. */
export interface CardText {
  text: string;
  /** The x of the run's start side (its left in `ltr`, its right in `rtl`). */
  x: number;
  /** The baseline, from the card's top. */
  y: number;
  size: number;
  bold: boolean;
  color: "ink" | "muted" | "paper";
}

/** Where everything goes, in points from the top left. */
export interface CardLayout {
  width: number;
  height: number;
  dir: "ltr" | "rtl";
  /** The band across the top (the museum's name on it). */
  band: { height: number };
  texts: CardText[];
  /** The QR code: its modules (row by row, `size` × `size`), where and how big. */
  qr: { x: number; y: number; side: number; size: number; dark: (row: number, col: number) => boolean };
}

/** A card's size in points: a bank card's proportions (85.6 × 54 mm), larger, to be read on a phone. */
export const CARD_SIZE = { width: 324, height: 204 } as const;
/** The colours, as RGB 0..1. */
export const CARD_COLORS: Record<"ink" | "muted" | "paper" | "band", [number, number, number]> = {
  ink: [0.1, 0.1, 0.12],
  muted: [0.35, 0.35, 0.4],
  paper: [1, 1, 1],
  band: [0.12, 0.23, 0.37],
};

const MARGIN = 16;
const BAND = 40;
const QR_SIDE = 124;
const GAP = 12;

/** Measures a run of text (logical order) at `size` in the regular or the bold font. */
export type MeasureText = (text: string, size: number, bold: boolean) => number;

/**
 * The card's layout: sizes shrink (to a floor) so a long name or level still fits its column; what
 * is longer still is cut with an ellipsis rather than run into the QR code.
 */
export function layoutCard(face: MemberCardFace, measure: MeasureText): CardLayout {
  const { width, height } = CARD_SIZE;
  const rtl = face.dir === "rtl";
  const start = rtl ? width - MARGIN : MARGIN;
  const texts: CardText[] = [];
  const fit = (text: string, size: number, min: number, bold: boolean, room: number) => {
    let s = size;
    while (s > min && measure(text, s, bold) > room) s -= 0.5;
    let t = text;
    while (t.length > 1 && measure(t, s, bold) > room) t = t.slice(0, -2) + "…";
    return { text: t, size: s };
  };
  const put = (
    text: string,
    y: number,
    size: number,
    bold: boolean,
    color: CardText["color"],
    room: number,
    min = size,
  ) => texts.push({ ...fit(text, size, min, bold, room), x: start, y, bold, color });

  // The band: the museum's name from the start side, the title at the end side.
  const titleSize = 9;
  const titleWidth = measure(face.title, titleSize, false);
  texts.push({
    text: face.title,
    x: rtl ? MARGIN + titleWidth : width - MARGIN - titleWidth,
    y: 25,
    size: titleSize,
    bold: false,
    color: "paper",
  });
  put(face.museum, 26, 14, true, "paper", width - 2 * MARGIN - titleWidth - GAP, 9);

  const column = width - 2 * MARGIN - QR_SIDE - GAP;
  put(face.name, 72, 15, true, "ink", column, 9);
  put(face.level, 92, 11, false, "muted", column, 8);
  put(face.numberLabel, 122, 8, false, "muted", column, 6);
  put(face.number, 139, 13, true, "ink", column, 9);
  put(face.validLabel, 162, 8, false, "muted", column, 6);
  put(face.validUntil, 179, 13, true, "ink", column, 9);

  const { modules } = QRCode.create([{ data: new TextEncoder().encode(face.token), mode: "byte" }], {
    errorCorrectionLevel: "M",
  });
  const qrTop = BAND + (height - BAND - QR_SIDE) / 2;
  return {
    width,
    height,
    dir: face.dir,
    band: { height: BAND },
    texts,
    qr: {
      x: rtl ? MARGIN : width - MARGIN - QR_SIDE,
      y: qrTop,
      side: QR_SIDE,
      size: modules.size,
      dark: (row, col) => Boolean(modules.data[row * modules.size + col]),
    },
  };
}

/** The QR code as rectangles, one per run of dark modules in a row: x, y (from the top), width, height. */
export function qrRuns(qr: CardLayout["qr"]): [number, number, number, number][] {
  const cell = qr.side / qr.size;
  const runs: [number, number, number, number][] = [];
  for (let row = 0; row < qr.size; row++) {
    for (let col = 0; col < qr.size;) {
      if (!qr.dark(row, col)) {
        col++;
        continue;
      }
      let end = col;
      while (end < qr.size && qr.dark(row, end)) end++;
      runs.push([qr.x + col * cell, qr.y + row * cell, (end - col) * cell, cell]);
      col = end;
    }
  }
  return runs;
}
