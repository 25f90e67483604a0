/**
 * Images for the museum's logo and hero tests (issue 27): a PNG of a size, and a clean SVG logo.
 *
 * @module
 */
import { encode } from "fast-png";

/** A PNG of `width` × `height` pixels, one colour (maroon). */
export function pngOf(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([0x7a, 0x1f, 0x3d, 0xff], i);
  return encode({ width, height, data, channels: 4 });
}

/** A simple SVG logo: a circle and a path. */
export const CLEAN_SVG = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">
  <title>Logo</title>
  <circle cx="50" cy="50" r="40" fill="#7a1f3d"/>
  <path d="M30 50h40" stroke="#fff" stroke-width="8"/>
</svg>`;
