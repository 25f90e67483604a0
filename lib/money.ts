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

/** The currency code of an API name. */
export function currencyCode(name: CurrencyName): CurrencyCode {
  return CURRENCIES[name];
}

/** A membership tier: its prices in major units. */
export interface Tier {
  id: number;
  price: { dollars: number; nis: number };
}

/** The four tiers of spec section 9. */
export const TIERS: readonly Tier[] = [
  { id: 1, price: { dollars: 5, nis: 20 } },
  { id: 2, price: { dollars: 25, nis: 100 } },
  { id: 3, price: { dollars: 50, nis: 200 } },
  { id: 4, price: { dollars: 100, nis: 400 } },
];

/** The smallest payment, in major units (spec section 9). */
export const MIN_AMOUNT = 1;

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
