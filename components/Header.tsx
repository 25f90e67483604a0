import { asset } from "@/lib/framework/mod.ts";
import { translator } from "@/lib/core/i18n.ts";
import type { TFunction } from "i18next";
import { type Lang, LANGUAGES, withLang } from "@/lib/shared/languages.ts";
import LanguageSelector from "@/islands/LanguageSelector.tsx";
import type { MuseumSettings } from "@/lib/shared/museum.ts";

/**
 * The museum's name in `lang`: its settings' (owners change it), else the locale's.
 *
 * @example
 * ```ts
 * museumName(state.museum, "he", state.t); // "המוזיאון"
 * ```
 */
export function museumName(museum: MuseumSettings | undefined, lang: Lang, t: TFunction): string {
  return museum?.identity.name[lang] || t("welcome.museumTitle");
}

/** The logo header with the language selector. Server-rendered; the selector is an island. */
export function Header(
  { state, url }: { state: { t: TFunction; lang: Lang; museum?: MuseumSettings }; url: URL },
) {
  const { t, lang } = state;
  const here = url.pathname + url.search;
  const languages = LANGUAGES.map((code) => ({
    code,
    name: translator(code)("languageName"),
    href: withLang(here, code),
  }));
  return (
    <header class="site-header" id="top">
      {/* Named by its visible text (WCAG 2.5.3, label in name); the logo beside it is decoration. */}
      <a class="logo" href={`/${lang}/`}>
        <img src={asset("/logo.svg")} alt="" width="40" height="40" />
        <span class="logo-text">{museumName(state.museum, lang, t)}</span>
      </a>
      {
        /* The links in a row on wider screens; on a phone (styles.css) a disclosure holding the same
          links instead, so the header keeps one row (issue 27). `<details>` opens without JavaScript,
          from the keyboard, and is announced as expandable; only one of the two shows at a width.
          The menu's name holds its visible text, the current language (WCAG 2.5.3). */
      }
      <nav class="lang-selector" aria-label={t("header.languageSelector")}>
        <LanguageSelector current={lang} languages={languages} />
        <details class="lang-menu">
          <summary aria-label={`${t("header.languageSelector")}: ${t("languageName")}`}>
            {t("languageName")}
          </summary>
          <LanguageSelector current={lang} languages={languages} />
        </details>
      </nav>
    </header>
  );
}
