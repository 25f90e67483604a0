/**
 * The museum's look on its pages (issue 27): its brand colours as CSS custom properties, served as
 * `/museum.css?v={version}` and linked from every page's head only when they differ from today's
 * (so a museum that never set them gets no extra request, and the page cache, keyed by the
 * settings' version, keeps each version's page).
 *
 * @module
 */
import { HEX_COLOUR } from "@/lib/shared/colours.ts";
import { coloursOf, DEFAULT_COLOURS, type MuseumSettings } from "@/lib/shared/museum.ts";

/**
 * The stylesheet's address for these settings, or null when they have today's colours.
 *
 * @example
 * ```ts
 * museumStylesheetHref(settings); // "/museum.css?v=3"
 * ```
 */
export function museumStylesheetHref(settings: MuseumSettings | undefined): string | null {
  const colours = coloursOf(settings);
  if (colours.brand === DEFAULT_COLOURS.brand && colours.accent === DEFAULT_COLOURS.accent) return null;
  return `/museum.css?v=${settings!.version}`;
}

/**
 * The custom properties: `--brand`, `--accent`, and the hero's gradient end as the brand itself (the
 * contrast was checked against that colour, not a lighter one). Only `#rrggbb` values are written.
 */
export function museumStylesheet(settings: MuseumSettings): string {
  const colours = coloursOf(settings);
  const safe = (hex: string, fallback: string) => HEX_COLOUR.test(hex) ? hex : fallback;
  const brand = safe(colours.brand, DEFAULT_COLOURS.brand);
  const accent = safe(colours.accent, DEFAULT_COLOURS.accent);
  return `:root {\n  --brand: ${brand};\n  --brand-end: ${brand};\n  --accent: ${accent};\n}\n`;
}
