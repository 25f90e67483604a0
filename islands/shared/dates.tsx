/**
 * The dates of a back-office island (`lib/shared/dates.ts`): the island's root gives its page's
 * language and the museum's time zone (a prop from the route, `config.museumTimeZone`) with
 * `DatesZone` of `dates_context.tsx`; every table and panel under it writes its dates with
 * {@link useDates}, with no prop to pass down (through `Deferred` too, which keeps its place's
 * contexts).
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { useContext } from "preact/hooks";
import { type DateFormats, dateFormats, DEFAULT_TIME_ZONE } from "@/lib/shared/dates.ts";
import { DatesContext } from "./dates_context.tsx";

// The formats of each language and zone asked for: a page asks for one, so this stays that small.
const made = new Map<string, DateFormats>();

function formatsOf(lang: string, timeZone: string): DateFormats {
  const key = `${lang} ${timeZone}`;
  let formats = made.get(key);
  if (!formats) made.set(key, formats = dateFormats(lang, timeZone));
  return formats;
}

/**
 * Gives the components under it these dates, made already (a component rendered alone in a test).
 *
 * @example
 * ```tsx
 * <DatesProvider dates={dateFormats("he", "Asia/Jerusalem")}>{table}</DatesProvider>
 * ```
 */
export function DatesProvider(props: { dates: DateFormats; children: ComponentChildren }) {
  return <DatesContext.Provider value={props.dates}>{props.children}</DatesContext.Provider>;
}

/**
 * The dates of the island this component is in: `dateTime(iso)` (the museum's clock, with its
 * zone), `day("YYYY-MM-DD")`, `month("YYYY-MM")`, in the page's language; English on the default
 * zone outside any provider (a component rendered alone in a test).
 *
 * @example
 * ```tsx
 * const dates = useDates();
 * return <time dateTime={item.createdAt}>{dates.dateTime(item.createdAt)}</time>;
 * ```
 */
export function useDates(): DateFormats {
  const source = useContext(DatesContext);
  if (!source) return formatsOf("en", DEFAULT_TIME_ZONE);
  return "dateTime" in source ? source : formatsOf(source.lang, source.timeZone);
}
