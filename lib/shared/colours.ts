/**
 * Colour contrast as WCAG 2 defines it (relative luminance of sRGB, ratio (L1 + 0.05) / (L2 + 0.05)),
 * for the museum's brand colours (issue 27): the server refuses a colour text would be hard to read
 * on or in, and the editor shows the same ratio. Pure, so an island may import it.
 *
 * @module
 */

/** The smallest contrast of normal text, WCAG 2 AA (1.4.3). */
export const MIN_TEXT_CONTRAST = 4.5;

/** A colour as the settings hold it: `#` and six lower-case hex digits. */
export const HEX_COLOUR = /^#[0-9a-f]{6}$/;

/** The relative luminance of a `#rrggbb` colour (0 black … 1 white). */
export function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const c = parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * The contrast ratio of two `#rrggbb` colours, 1 to 21, floored to two decimals (so 4.499… is not
 * rounded up past the line).
 *
 * @example
 * ```ts
 * contrast("#1f3a5f", "#ffffff"); // 11.6…
 * ```
 */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return Math.floor(((light + 0.05) / (dark + 0.05)) * 100) / 100;
}
