/**
 * The five languages, their writing direction, and how a path names one. Pure data and functions,
 * safe for islands (no i18next, no server code).
 *
 * @module
 */

/** Supported languages; `en` is the fallback. */
export const LANGUAGES = ["en", "he", "ru", "pt", "es"] as const;
export type Lang = typeof LANGUAGES[number];
export const FALLBACK_LANG: Lang = "en";

/** Name of the cookie mirroring the saved choice, so the server can redirect `/`. */
export const LANG_COOKIE = "lang";
/** How long the saved choice's cookie lasts, in seconds (a year). */
export const LANG_COOKIE_MAX_AGE = 31_536_000;
/**
 * The `Set-Cookie` value that saves a language as the visitor's choice: the whole site, a year, not
 * sent on cross-site subrequests, `Secure` on https. Not HttpOnly: the language selector (JavaScript)
 * writes the same cookie when a language is clicked.
 *
 * @example
 * ```ts
 * langCookie("es", true); // "lang=es; Path=/; Max-Age=31536000; SameSite=Lax; Secure"
 * ```
 */
export function langCookie(lang: Lang, secure: boolean): string {
  return `${LANG_COOKIE}=${lang}; Path=/; Max-Age=${LANG_COOKIE_MAX_AGE}; SameSite=Lax${
    secure ? "; Secure" : ""
  }`;
}

/** Local-storage key of the saved choice (the spec keeps it in local storage). */
export const LANG_STORAGE_KEY = "i18nextLng";

/**
 * Whether `value` is a supported language code.
 *
 * @example
 * ```ts
 * isLang("he"); // true
 * isLang("fr"); // false
 * ```
 */
export function isLang(value: unknown): value is Lang {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** Writing direction of a language. */
export function dirOf(lang: Lang): "rtl" | "ltr" {
  return lang === "he" ? "rtl" : "ltr";
}

/**
 * A value set into a line of another language's words (a name, a number, an address), isolated
 * (FSI … PDI): it takes its own direction from its first letter, as HTML's `<bdi>` does, and the
 * words around it keep their order. A Latin address in a Hebrew line stays left to right; a Hebrew
 * name in an English line stays right to left.
 *
 * @example
 * ```ts
 * isolate("1 Museum Road"); // "\u20681 Museum Road\u2069"
 * ```
 */
export function isolate(value: string | number): string {
  return `\u2068${value}\u2069`;
}

/**
 * Replaces (or adds) the language segment of a path, keeping the rest and the query.
 *
 * @example
 * ```ts
 * withLang("/en/terminal-payment/12?x=1", "he"); // "/he/terminal-payment/12?x=1"
 * withLang("/", "ru"); // "/ru/"
 * ```
 */
export function withLang(pathAndQuery: string, lang: Lang): string {
  const q = pathAndQuery.indexOf("?");
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const query = q < 0 ? "" : pathAndQuery.slice(q);
  const segments = path.split("/").slice(1);
  if (segments.length > 0 && isLang(segments[0])) segments.shift();
  const rest = segments.join("/");
  return `/${lang}/${rest}${query}`;
}

/**
 * Where a path with an unsupported first segment goes: a language-like segment (`fr`, `pt-BR`) is
 * replaced, by its supported base language when there is one (`pt-BR` → `pt`) and by English
 * otherwise; any other segment (`/success`) is kept and English is put in front of it.
 *
 * @example
 * ```ts
 * unsupportedLangRedirect("/fr/success", "?a=1"); // "/en/success?a=1"
 * unsupportedLangRedirect("/pt-BR/", ""); // "/pt/"
 * unsupportedLangRedirect("/success", ""); // "/en/success"
 * ```
 */
export function unsupportedLangRedirect(pathname: string, search: string): string {
  const segments = pathname.split("/").slice(1);
  const first = segments[0] ?? "";
  const tag = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(first) ? first : null;
  if (tag) {
    const base = tag.split("-")[0].toLowerCase();
    const target = isLang(base) ? base : FALLBACK_LANG;
    return `/${target}/${segments.slice(1).join("/")}${search}`;
  }
  return `/${FALLBACK_LANG}/${segments.join("/")}${search}`;
}
