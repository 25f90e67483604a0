/**
 * Translations on the server: i18next with one JSON file per language in `locales/`. Pages call
 * `t()` from the request's state; islands get the strings they need as props, so i18next and the
 * locale files never ship to the browser.
 *
 * English (the fallback) loads with this module; each other language when first asked for, from its
 * file, read synchronously (a few ms): a start serves `/en/` without parsing the other four.
 *
 * @module
 */
import i18next, { type TFunction } from "i18next";
import en from "@/locales/en.json" with { type: "json" };
import { FALLBACK_LANG, type Lang, LANGUAGES } from "@/lib/shared/languages.ts";

const instance = i18next.createInstance();
instance.init({
  initAsync: false,
  resources: { [FALLBACK_LANG]: { translation: en } },
  lng: FALLBACK_LANG,
  fallbackLng: FALLBACK_LANG,
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false }, // Preact escapes when rendering
  returnNull: false,
});

const loaded = new Map<Lang, Record<string, unknown>>([[FALLBACK_LANG, en]]);

/** A language's texts, read from `locales/` and added to i18next on first use. */
function resources(lang: Lang): Record<string, unknown> {
  let texts = loaded.get(lang);
  if (!texts) {
    if (!LANGUAGES.includes(lang)) throw new Error(`no translations for language "${lang}"`);
    texts = JSON.parse(Deno.readTextFileSync(new URL(`../../locales/${lang}.json`, import.meta.url)));
    instance.addResourceBundle(lang, "translation", texts);
    loaded.set(lang, texts!);
  }
  return texts!;
}

/** The locale resources, by language (each read when first used). */
export const RESOURCES: Record<Lang, Record<string, unknown>> = Object.defineProperties(
  {} as Record<Lang, Record<string, unknown>>,
  Object.fromEntries(LANGUAGES.map((l) => [l, { enumerable: true, get: () => resources(l) }])),
);

// Bound: one function per site language (5 entries).
const fixed = new Map<Lang, TFunction>();

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
  let t = fixed.get(lang);
  if (!t) {
    resources(lang);
    t = instance.getFixedT(lang);
    fixed.set(lang, t);
  }
  return t;
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
