/**
 * Translations on the server: i18next with one JSON file per language in `locales/`. Pages call
 * `t()` from the request's state; islands get the strings they need as props, so i18next and the
 * locale files never ship to the browser.
 *
 * @module
 */
import i18next, { type TFunction } from "i18next";
import en from "../locales/en.json" with { type: "json" };
import he from "../locales/he.json" with { type: "json" };
import ru from "../locales/ru.json" with { type: "json" };
import pt from "../locales/pt.json" with { type: "json" };
import es from "../locales/es.json" with { type: "json" };
import { FALLBACK_LANG, type Lang, LANGUAGES } from "./languages.ts";

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
