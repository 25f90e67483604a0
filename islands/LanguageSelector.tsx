import { LANG_COOKIE, LANG_COOKIE_MAX_AGE, LANG_STORAGE_KEY } from "@/lib/shared/languages.ts";

/** One language of the selector. */
export interface LanguageLink {
  code: string;
  /** The language's own name (English, עברית, …). */
  name: string;
  /** This page in that language: the first path segment replaced. */
  href: string;
}

/** The language this page saved on its visit. */
let savedOnVisit: string | null = null;

function save(code: string) {
  try {
    localStorage.setItem(LANG_STORAGE_KEY, code);
  } catch { /* storage disabled: the cookie still carries the choice */ }
  document.cookie = `${LANG_COOKIE}=${code}; path=/; max-age=${LANG_COOKIE_MAX_AGE}; samesite=lax`;
}

/**
 * The language selector: plain links, so it works without JavaScript (on a phone inside a compact
 * `<details>` menu, issue 27); with JavaScript, a click also saves
 * the choice (local storage, as the spec says, and a cookie so the server can redirect `/`).
 * Visiting a page saves its language the same way (spec section 2: the path's language is the
 * choice): local storage here, the cookie by the server too (`routes/[lang]/_middleware.ts`), so
 * that works without JavaScript.
 */
export default function LanguageSelector(
  props: { current: string; label: string; languages: LanguageLink[] },
) {
  // Once, when the island wakes in the browser (not while the server renders it). Not an effect:
  // `preact/hooks` would add 1.3 KB to every page's script, over the shell pages' 8 KB budget.
  if (typeof document === "object" && savedOnVisit !== props.current) {
    savedOnVisit = props.current;
    save(props.current);
  }
  const links = props.languages.map((l) => (
    <li key={l.code}>
      <a
        href={l.href}
        hrefLang={l.code}
        lang={l.code}
        aria-current={l.code === props.current ? "true" : undefined}
        onClick={() => save(l.code)}
      >
        {l.name}
      </a>
    </li>
  ));
  const current = props.languages.find((l) => l.code === props.current);
  // The links in a row on wider screens; on a phone (styles.css) a disclosure holding the same
  // links instead, so the header keeps one row. `<details>` opens without JavaScript, from the
  // keyboard, and is announced as expandable; only one of the two is displayed at a width.
  return (
    <nav class="lang-selector" aria-label={props.label}>
      <ul class="lang-list">{links}</ul>
      <details class="lang-menu">
        <summary>
          <span class="visually-hidden">{props.label}:</span>
          <span lang={current?.code}>{current?.name}</span>
        </summary>
        <ul>{links}</ul>
      </details>
    </nav>
  );
}
