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
 * The language selector's links (`components/Header.tsx` places them, twice: in a row, and in the
 * phone's compact menu): plain links, so they work without JavaScript; with it, a click also saves
 * the choice (local storage, as the spec says, and a cookie so the server can redirect `/`).
 * Visiting a page saves its language the same way (spec section 2: the path's language is the
 * choice): local storage here, the cookie by the server too (`routes/[lang]/_middleware.ts`), so
 * that works without JavaScript.
 */
export default function LanguageSelector(props: { current: string; languages: LanguageLink[] }) {
  // Once, when the island wakes in the browser (not while the server renders it). Not an effect:
  // `preact/hooks` would add 1.3 KB to every page's script, over the shell pages' 8 KB budget.
  if (typeof document === "object" && savedOnVisit !== props.current) {
    savedOnVisit = props.current;
    save(props.current);
  }
  return (
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
  );
}
