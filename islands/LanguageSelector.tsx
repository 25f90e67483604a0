import { LANG_COOKIE, LANG_STORAGE_KEY } from "../lib/shared/languages.ts";

/** One language of the selector. */
export interface LanguageLink {
  code: string;
  /** The language's own name (English, עברית, …). */
  name: string;
  /** This page in that language: the first path segment replaced. */
  href: string;
}

/**
 * The language selector: plain links, so it works without JavaScript; with it, a click also saves
 * the choice (local storage, as the spec says, and a cookie so the server can redirect `/`).
 */
export default function LanguageSelector(
  props: { current: string; label: string; languages: LanguageLink[] },
) {
  const save = (code: string) => {
    try {
      localStorage.setItem(LANG_STORAGE_KEY, code);
    } catch { /* storage disabled: the cookie still carries the choice */ }
    document.cookie = `${LANG_COOKIE}=${code}; path=/; max-age=31536000; samesite=lax`;
  };
  return (
    <nav class="lang-selector" aria-label={props.label}>
      <ul>
        {props.languages.map((l) => (
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
        ))}
      </ul>
    </nav>
  );
}
