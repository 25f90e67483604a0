/**
 * How a receipt writes figures and dates, in each language: shared by the PDF and the public
 * verification page (which must not load the PDF's libraries to show three fields).
 *
 * @module
 */

import type { Lang } from "@/lib/shared/languages.ts";

/** Each language's locale for figures and dates. */
export const LOCALES: Record<Lang, string> = {
  en: "en-US",
  he: "he-IL",
  ru: "ru-RU",
  pt: "pt-BR",
  es: "es-ES",
};

// Making a formatter costs far more than formatting (a millisecond of every receipt): one per
// language and currency or time zone, made on first use. Bound: 5 languages × (2 currencies, the
// 2 zones of `TIME_ZONES`, percent) = 25 entries.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
const formatter = <F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F => {
  let made = formatters.get(key) as F | undefined;
  if (!made) formatters.set(key, made = make());
  return made;
};

/** The time zone a receipt's dates are written in: its issuer's. */
export const TIME_ZONES = { museum: "Asia/Jerusalem", friends: "America/New_York" } as const;

/**
 * The amount in figures, e.g. `₪180.50`, `$25.00`.
 *
 * @example
 * ```ts
 * amountInFigures(18_050, "ILS", "en"); // "₪180.50"
 * ```
 */
export function amountInFigures(amount: number, currency: "ILS" | "USD", lang: Lang): string {
  const make = () => new Intl.NumberFormat(LOCALES[lang], { style: "currency", currency });
  return formatter(`${lang}:${currency}`, make).format(amount / 100);
}

/**
 * An instant as a long date in `timeZone`.
 *
 * @example
 * ```ts
 * longDate("2026-05-10T08:00:00.000Z", "en", "Asia/Jerusalem"); // "May 10, 2026"
 * ```
 */
export function longDate(iso: string, lang: Lang, timeZone: string): string {
  const make = () => new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: "long", timeZone });
  return formatter(`${lang}:${timeZone}`, make).format(new Date(iso));
}

/**
 * A whole percent as the language writes it, e.g. `60%`, `60 %`.
 *
 * @example
 * ```ts
 * percent(60, "es"); // "60 %"
 * ```
 */
export function percent(value: number, lang: Lang): string {
  const make = () => new Intl.NumberFormat(LOCALES[lang], { style: "percent" });
  return formatter(`${lang}:percent`, make).format(value / 100);
}
