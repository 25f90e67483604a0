/**
 * Translated texts in an island: the page translates the keys an island needs on the server and
 * passes them as a prop; this fills in `{{values}}` the way i18next does, without shipping it.
 *
 * @module
 */
import type { Message } from "./account_forms.ts";

/** Looks up a key (the key itself when missing) and fills `{{name}}` placeholders. */
export type Translate = (key: string, params?: Record<string, string | number>) => string;

/**
 * A translate function over the page's texts.
 *
 * @example
 * ```ts
 * const t = translator({ "transactions.pageOf": "Page {{page}} of {{pages}}" });
 * t("transactions.pageOf", { page: 2, pages: 7 }); // "Page 2 of 7"
 * ```
 */
export function translator(texts: Record<string, string>): Translate {
  return (key, params) => {
    const text = texts[key] ?? key;
    return params
      ? text.replace(/\{\{\s*(\w+)\s*\}\}/g, (m, name: string) => String(params[name] ?? m))
      : text;
  };
}

/**
 * A message as words: a translated key, or the server's own text.
 *
 * @example
 * ```ts
 * messageText(t, { key: "apiErrors.network" }); // "Network error. Please check your connection"
 * ```
 */
export function messageText(t: Translate, message: Message): string {
  return message.text ?? t(message.key ?? "apiErrors.unexpected", message.params);
}

// One isolate for pages, islands and PDFs: a value set into a translated sentence.
export { isolate } from "@/lib/shared/languages.ts";
