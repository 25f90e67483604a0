/**
 * Dates and amounts as the back office shows them (spec section 9: US English dates with short
 * month, day, year, hour and minute; amounts as currency), and dates as the donor portal shows
 * them (in the page's language). Pure and client-safe.
 *
 * @module
 */
import { currencyCodeOf, formatMoney } from "./money.ts";

const US_DATE: Intl.DateTimeFormatOptions = {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
};

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * An ISO 8601 time in US English, in the given time zone (the viewer's own when left out); null
 * for no or an unreadable date.
 *
 * The viewer's zone and UTC are written from the `Date` itself, as `Intl.DateTimeFormat("en-US")`
 * writes them: a page's first date formatter costs 40 ms or more in a phone's browser (the locale's
 * date patterns are built once per page), the back office's largest single piece of script work.
 * Other zones go through a formatter, one per zone, kept.
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
  if (timeZone === undefined || timeZone === "UTC") {
    const utc = timeZone === "UTC";
    const hours = utc ? date.getUTCHours() : date.getHours();
    const minutes = utc ? date.getUTCMinutes() : date.getMinutes();
    const day = `${usDay(date, utc)}, ${utc ? date.getUTCFullYear() : date.getFullYear()}`;
    return `${day}, ${hours % 12 || 12}:${String(minutes).padStart(2, "0")} ${hours < 12 ? "AM" : "PM"}`;
  }
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { ...US_DATE, timeZone });
    dateFormats.set(timeZone, format);
  }
  return format.format(date);
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A calendar day (`YYYY-MM-DD`) as US English short month and day, e.g. for chart and table rows;
 * null for anything else.
 *
 * @example
 * ```ts
 * usShortDay("2026-03-05"); // "Mar 5"
 * ```
 */
export function usShortDay(day: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? null : usDay(date, true);
}

function usDay(date: Date, utc: boolean): string {
  return `${MONTHS[utc ? date.getUTCMonth() : date.getMonth()]} ${utc ? date.getUTCDate() : date.getDate()}`;
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
  currency: number | string | null | undefined,
  lang: string,
): string | null {
  const value = typeof minor === "string" ? (/^-?\d+$/.test(minor.trim()) ? Number(minor) : NaN) : minor;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) return null;
  // The provider's answers carry the currency as a string ("1"), recorded results as a number.
  const code = currencyCodeOf(currency);
  return code === null ? null : formatMoney(value, code, lang);
}

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
