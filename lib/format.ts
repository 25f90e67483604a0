/**
 * Dates and amounts as the back office shows them (spec section 9: US English dates with short
 * month, day, year, hour and minute; amounts as currency). Pure and client-safe.
 *
 * @module
 */
import { type CurrencyCode, formatMoney } from "./money.ts";

const US_DATE: Intl.DateTimeFormatOptions = {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
};

/**
 * An ISO 8601 time in US English, in the given time zone (the viewer's own when left out); null
 * for no or an unreadable date.
 *
 * @example
 * ```ts
 * usDateTime("2026-03-05T14:07:00Z", "UTC"); // "Mar 5, 2026, 2:07 PM"
 * ```
 */
export function usDateTime(iso: string | null | undefined, timeZone?: string): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat("en-US", { ...US_DATE, timeZone }).format(date);
}

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
  currency: number | null | undefined,
  lang: string,
): string | null {
  const value = typeof minor === "string" ? (/^-?\d+$/.test(minor.trim()) ? Number(minor) : NaN) : minor;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) return null;
  if (currency !== 1 && currency !== 2) return null;
  return formatMoney(value, currency as CurrencyCode, lang);
}
