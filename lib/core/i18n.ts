/**
 * Translations on the server: i18next with one JSON file per language in `locales/`. Pages call
 * `t()` from the request's state; islands get the strings they need as props, so i18next and the
 * locale files never ship to the browser.
 *
 * @module
 */
import i18next, { type TFunction } from "i18next";
import en from "@/locales/en.json" with { type: "json" };
import he from "@/locales/he.json" with { type: "json" };
import ru from "@/locales/ru.json" with { type: "json" };
import pt from "@/locales/pt.json" with { type: "json" };
import es from "@/locales/es.json" with { type: "json" };
import { FALLBACK_LANG, type Lang, LANGUAGES } from "@/lib/shared/languages.ts";

/** The locale resources, by language. */
export const RESOURCES: Record<Lang, Record<string, unknown>> = { en, he, ru, pt, es };

const instance = i18next.createInstance();
instance.init({
  initAsync: false,
  resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: RESOURCES[l] }])),
  lng: FALLBACK_LANG,
  fallbackLng: FALLBACK_LANG,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false }, // Preact escapes when rendering
  returnNull: false,
});

// Bound: one function per site language (5 entries), made at load.
const fixed = new Map<Lang, TFunction>(LANGUAGES.map((l) => [l, instance.getFixedT(l)]));

/**
 * The translate function of one language.
 *
 * @example
 * ```ts
 * const t = translator("ru");
 * t("scrollToTop.label"); // "Наверх"
 * ```
 */
export function translator(lang: Lang): TFunction {
  return fixed.get(lang)!;
}

export type { TFunction };

/**
 * Every key under the given prefixes (from the English file; the others have the same keys), with
 * its text in one language: what a page hands an island that shows many of them.
 *
 * @example
 * ```ts
 * textsUnder("he", ["transactions"])["transactions.title"]; // "היסטוריית עסקאות"
 * ```
 */
export function textsUnder(lang: Lang, prefixes: string[]): Record<string, string> {
  const t = translator(lang);
  const texts: Record<string, string> = {};
  const walk = (node: unknown, path: string) => {
    if (typeof node === "string") texts[path] = t(path);
    else if (node && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) walk(value, path ? `${path}.${key}` : key);
    }
  };
  for (const prefix of prefixes) {
    walk(prefix.split(".").reduce<unknown>((n, k) => (n as never)?.[k], RESOURCES.en), prefix);
  }
  return texts;
}
