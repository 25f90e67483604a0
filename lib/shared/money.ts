/**
 * Money: integers in minor units (agorot, cents) everywhere inside the product; currency codes as
 * the provider uses them (1 = NIS, 2 = USD); the membership tiers of spec section 9. Safe for
 * islands (no server code), so a page shows exactly the prices the server charges.
 *
 * @module
 */

/** The API's currency names (spec section 7) and the provider's codes. */
export const CURRENCIES = { nis: 1, dollars: 2 } as const;
export type CurrencyName = keyof typeof CURRENCIES;
export type CurrencyCode = typeof CURRENCIES[CurrencyName];

/** ISO 4217 code of a currency, for formatting. */
export function isoCurrency(code: CurrencyCode): "ILS" | "USD" {
  return code === 1 ? "ILS" : "USD";
}

/**
 * The currency code a value stands for: `1` or `2`, as a number or as the provider's own answers
 * carry it, a string (`"1"`, `"2"`); `null` for anything else.
 *
 * @example
 * ```ts
 * currencyCodeOf("2"); // 2
 * currencyCodeOf(3); // null
 * ```
 */
export function currencyCodeOf(value: unknown): CurrencyCode | null {
  const s = typeof value === "string" ? value.trim() : value;
  return s === 1 || s === "1" ? 1 : s === 2 || s === "2" ? 2 : null;
}

/** The currency code of an API name. */
export function currencyCode(name: CurrencyName): CurrencyCode {
  return CURRENCIES[name];
}

/** A membership tier as the donation page prices it: a level's id and its prices in major units. */
export interface Tier {
  id: number;
  price: { dollars: number; nis: number };
}

/**
 * The four tiers of spec section 9: the prices a fresh install's membership levels start at
 * (`lib/museum/defaults.ts`). Pages and payments price tiers from the museum's levels, never from
 * these.
 */
export const TIERS: readonly Tier[] = [
  { id: 1, price: { dollars: 5, nis: 20 } },
  { id: 2, price: { dollars: 25, nis: 100 } },
  { id: 3, price: { dollars: 50, nis: 200 } },
  { id: 4, price: { dollars: 100, nis: 400 } },
];

export { MIN_AMOUNT } from "./amounts.ts";

/**
 * Major units (as a donor types them, at most two decimals) to minor units; `null` when the value
 * is not a positive amount with at most two decimals.
 *
 * @example
 * ```ts
 * toMinor(12.5); // 1250
 * toMinor(0.001); // null
 * ```
 */
export function toMinor(major: number): number | null {
  if (!Number.isFinite(major) || major <= 0) return null;
  const minor = Math.round(major * 100);
  if (Math.abs(minor - major * 100) > 1e-6) return null;
  return Number.isSafeInteger(minor) ? minor : null;
}

/**
 * Formats minor units as currency for a locale.
 *
 * @example
 * ```ts
 * formatMoney(10000, 1, "en-US"); // "₪100.00"
 * formatMoney(550, 2, "he"); // "‏5.50 $"
 * ```
 */
export function formatMoney(minor: number, currency: CurrencyCode, locale: string): string {
  const style = MONEY_STYLES[locale];
  if (style && Number.isSafeInteger(minor)) return written(style, minor, currency);
  const key = `${locale}|${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    // Creating a formatter costs far more than formatting with one; locales are few.
    if (moneyFormats.size >= 64) moneyFormats.clear();
    format = new Intl.NumberFormat(locale, { style: "currency", currency: isoCurrency(currency) });
    moneyFormats.set(key, format);
  }
  return format.format(minor / 100);
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * The site's languages, written from the digits exactly as `Intl.NumberFormat` writes them
 * (lib/money_test.ts holds the two together): a process's or a page's first number formatter
 * costs 25 ms of the server's first page (ICU gathers which locales have number data) and 30–80 ms
 * of a phone's main thread, more than the whole page or table it fills.
 */
function written(style: MoneyStyle, minor: number, currency: CurrencyCode): string {
  const whole = String(Math.floor(Math.abs(minor) / 100));
  const cents = String(Math.abs(minor) % 100).padStart(2, "0");
  // Thousands are grouped from four integer digits on, or five where the language says so.
  const digits = whole.length < style.minGroup ? whole : whole.replace(/\B(?=(\d{3})+$)/g, style.group);
  const number = `${digits}${style.decimal}${cents}`;
  const shaped = style.pattern.replace("#", number).replace("¤", style.symbols[currency - 1]);
  return minor < 0 ? style.negative.replace("#", shaped) : style.positive.replace("#", shaped);
}

interface MoneyStyle {
  group: string;
  decimal: string;
  /** Integer digits from which thousands are grouped. */
  minGroup: number;
  /** The symbols of currency 1 (NIS) and 2 (USD). */
  symbols: [string, string];
  /** `#` the number, `¤` the symbol. */
  pattern: string;
  /** Around the shaped amount (`#`): direction marks and the sign. */
  positive: string;
  negative: string;
}

const NBSP = "\u00a0";
const RLM = "\u200f";
const LRM = "\u200e";

/**
 * How `Intl.NumberFormat(lang, { style: "currency" })` writes NIS and USD in the site's
 * languages (CLDR, as Chromium and Deno ship it; lib/money_test.ts holds the two together).
 */
const MONEY_STYLES: Record<string, MoneyStyle> = {
  en: {
    group: ",",
    decimal: ".",
    minGroup: 4,
    symbols: ["₪", "$"],
    pattern: "¤#",
    positive: "#",
    negative: "-#",
  },
  he: {
    group: ",",
    decimal: ".",
    minGroup: 4,
    symbols: ["₪", "$"],
    pattern: `#${NBSP}${RLM}¤`,
    positive: `${RLM}#`,
    negative: `${RLM}${LRM}-#`,
  },
  ru: {
    group: NBSP,
    decimal: ",",
    minGroup: 4,
    symbols: ["₪", "$"],
    pattern: `#${NBSP}¤`,
    positive: "#",
    negative: "-#",
  },
  pt: {
    group: ".",
    decimal: ",",
    minGroup: 4,
    symbols: ["₪", "US$"],
    pattern: `¤${NBSP}#`,
    positive: "#",
    negative: "-#",
  },
  es: {
    group: ".",
    decimal: ",",
    minGroup: 5,
    symbols: ["ILS", "US$"],
    pattern: `#${NBSP}¤`,
    positive: "#",
    negative: "-#",
  },
};
