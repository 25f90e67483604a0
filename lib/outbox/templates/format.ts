/**
 * How emails write dates, amounts and cards: in the reader's language (`Intl`, the site's own
 * money formatting), dates as calendar days in UTC (the time a server recorded a payment, without
 * an hour a reader in another zone would misread).
 *
 * @module
 */
import { formatMoney } from "@/lib/shared/money.ts";
import type { Lang } from "@/lib/shared/languages.ts";

/** The `Intl` locale of each language. */
const LOCALES: Record<Lang, string> = { en: "en-US", he: "he-IL", ru: "ru-RU", pt: "pt-PT", es: "es-ES" };

// Bound: one entry per site language (5).
const dateFormats = new Map<Lang, Intl.DateTimeFormat>();

/**
 * A day as an email writes it, e.g. "March 5, 2026" (en), "5 במרץ 2026" (he).
 *
 * @example
 * ```ts
 * emailDate("2026-03-05T14:07:00Z", "en"); // "March 5, 2026"
 * ```
 */
export function emailDate(iso: string | Date, lang: Lang): string {
  let format = dateFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: "long", timeZone: "UTC" });
    dateFormats.set(lang, format);
  }
  return format.format(typeof iso === "string" ? new Date(iso) : iso);
}

/**
 * An amount in minor units as an email writes it (the same as the site's pages).
 *
 * @example
 * ```ts
 * emailMoney(10000, 1, "en"); // "₪100.00"
 * ```
 */
export function emailMoney(minor: number, currency: 1 | 2, lang: Lang): string {
  return formatMoney(minor, currency, lang);
}

// The last four digits of a masked card number: one home, shared with the back office.
export { lastFour } from "@/lib/shared/format.ts";
