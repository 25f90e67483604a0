/**
 * The receipt's words, prepared once per process (per receipt worker): every label and statement a
 * receipt prints, translated once per language and kept. i18next takes microseconds a call and a
 * receipt asks for some thirty; only what names the receipt's own values (a card's last digits)
 * differs from one receipt to the next, and that is kept too, up to {@link LABELS_KEPT}.
 *
 * @module
 */
import { translator } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";

/** Translations kept at most (every label of the five languages many times over). */
export const LABELS_KEPT = 2_000;

const kept = new Map<string, string>();

/**
 * The receipt's translator in `language`, keeping what it translated.
 *
 * @example
 * ```ts
 * const t = receiptLabels("he");
 * t("receipt.title"); // "קבלה על תרומה", translated once
 * ```
 */
export function receiptLabels(language: Lang): (key: string, values?: Record<string, string>) => string {
  const t = translator(language);
  return (key, values) => {
    const id = values === undefined ? `${language}:${key}` : `${language}:${key}:${JSON.stringify(values)}`;
    let text = kept.get(id);
    if (text === undefined) {
      text = values === undefined ? t(key) : t(key, values);
      // Only a receipt's own values (a card's digits) add to it: starting over now and then is enough.
      if (kept.size >= LABELS_KEPT) kept.clear();
      kept.set(id, text);
    }
    return text;
  };
}
