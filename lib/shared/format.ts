/**
 * Amounts as the back office shows them (spec section 9: as currency), and dates as the donor
 * portal shows them (in the page's language). The back office's dates and times are
 * `dates.ts`'s (the viewer's language, the museum's clock and zone). Pure and client-safe.
 *
 * @module
 */
import { currencyCodeOf, formatMoney } from "./money.ts";

/**
 * An amount in minor units from a list item (`DebitTotal` is a numeric string) as currency in
 * the page's language; null when either part is missing or not a whole number.
 *
 * @example
 * ```ts
 * listAmount("10000", 1, "en"); // "₪100.00"
 * listAmount("", 2, "en"); // null
 * ```
 */
export function listAmount(
  minor: string | number | null | undefined,
  currency: number | string | null | undefined,
  lang: string,
): string | null {
  const value = typeof minor === "string" ? (/^-?\d+$/.test(minor.trim()) ? Number(minor) : NaN) : minor;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) return null;
  // The provider's answers carry the currency as a string ("1"), recorded results as a number.
  const code = currencyCodeOf(currency);
  return code === null ? null : formatMoney(value, code, lang);
}

// Bound: one formatter per site language (5 entries).
const portalFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A date as the donor portal shows it, in the page's language (UTC: the server cannot know the
 * donor's zone).
 *
 * @example
 * ```ts
 * portalDate("2026-04-10T09:00:00.000Z", "en"); // "Apr 10, 2026"
 * ```
 */
export function portalDate(iso: string, lang: string): string {
  let format = portalFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" });
    portalFormats.set(lang, format);
  }
  return format.format(new Date(iso));
}

/**
 * The last four digits of a masked card number (`458045******4580` → `4580`), or null.
 *
 * @example
 * ```ts
 * lastFour("458045******4580"); // "4580"
 * ```
 */
export function lastFour(masked: unknown): string | null {
  const digits = typeof masked === "string" ? masked.replace(/\D/g, "") : "";
  return digits.length >= 4 ? digits.slice(-4) : null;
}
