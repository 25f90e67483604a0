import { asset } from "@/lib/framework/mod.ts";
import { translator } from "@/lib/core/i18n.ts";
import type { TFunction } from "i18next";
import { type Lang, LANGUAGES, withLang } from "@/lib/shared/languages.ts";
import LanguageSelector from "@/islands/LanguageSelector.tsx";
import { museumImageUrl, type MuseumSettings } from "@/lib/shared/museum.ts";

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

/** The height the header draws a logo at, in CSS pixels; its width follows (at most {@link LOGO_MAX_WIDTH}). */
const LOGO_HEIGHT = 40;
const LOGO_MAX_WIDTH = 160;

/**
 * The museum's mark: its uploaded logo (an `<img>`, which runs nothing even in an SVG), sized from
 * its own proportions so the header does not move as it loads, else the site's own. Decoration: the
 * museum's name is beside it.
 */
export function MuseumMark({ museum }: { museum?: MuseumSettings }) {
  const logo = museum?.identity.logo;
  if (!logo) return <img src={asset("/logo.svg")} alt="" width="40" height="40" />;
  const ratio = logo.width > 0 && logo.height > 0 ? logo.width / logo.height : 1;
  const width = Math.min(LOGO_MAX_WIDTH, Math.round(LOGO_HEIGHT * ratio));
  return <img src={museumImageUrl(logo)} alt="" width={width} height={LOGO_HEIGHT} class="museum-logo" />;
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
        <MuseumMark museum={state.museum} />
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
