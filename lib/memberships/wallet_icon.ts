/**
 * The Apple Wallet pass's icon (`icon.png`, required by Wallet, shown on the lock screen and in
 * notifications), drawn in the museum's brand colours: a card in the accent colour, with a stripe,
 * on the brand colour. No font and no logo: it must read at 29 points.
 *
 * @module
 */
import { encode } from "fast-png";

/** The icon's sizes in pixels by file name (29 points at 1x, 2x and 3x). */
export const ICON_SIZES = { "icon.png": 29, "icon@2x.png": 58, "icon@3x.png": 87 } as const;

const rgbOf = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** Whether (x, y), in units of the icon's side, is inside the rounded card. */
function inCard(x: number, y: number): boolean {
  const [left, right, top, bottom, r] = [0.16, 0.84, 0.27, 0.73, 0.07];
  if (x < left || x > right || y < top || y > bottom) return false;
  const dx = Math.max(left + r - x, 0, x - (right - r));
  const dy = Math.max(top + r - y, 0, y - (bottom - r));
  return dx * dx + dy * dy <= r * r;
}

const SAMPLES = 4;

/**
 * The icon as a PNG, `size` pixels square: `accent` card on a `brand` ground, the card's stripe in
 * `brand` again (each pixel sampled 4 × 4 times, so the edges are smooth).
 *
 * @example
 * ```ts
 * const png = walletIcon(58, "#1f3a5f", "#b5531c");
 * ```
 */
export function walletIcon(size: number, brand: string, accent: string): Uint8Array {
  const [ground, card] = [rgbOf(brand), rgbOf(accent)];
  const data = new Uint8Array(size * size * 3);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let covered = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = (px + (sx + 0.5) / SAMPLES) / size;
          const y = (py + (sy + 0.5) / SAMPLES) / size;
          const stripe = y > 0.37 && y < 0.45;
          if (inCard(x, y) && !stripe) covered++;
        }
      }
      const share = covered / (SAMPLES * SAMPLES);
      for (let c = 0; c < 3; c++) {
        data[(py * size + px) * 3 + c] = Math.round(ground[c] * (1 - share) + card[c] * share);
      }
    }
  }
  return encode({ width: size, height: size, data, channels: 3, depth: 8 });
}
