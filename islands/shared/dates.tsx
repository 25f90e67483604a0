/**
 * The dates of a back-office island (`lib/shared/dates.ts`): the island's root makes them from its
 * page's language and the museum's time zone (a prop from the route, `config.museumTimeZone`) and
 * provides them; every table and panel under it writes its dates with {@link useDates}, with no
 * prop to pass down (through `Deferred` too, which keeps its place's contexts).
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { type DateFormats, dateFormats, DEFAULT_TIME_ZONE } from "@/lib/shared/dates.ts";

/** English on the default zone outside a {@link DatesProvider} (a component rendered alone in a test). */
const Dates = createContext<DateFormats>(dateFormats("en", DEFAULT_TIME_ZONE));

/**
 * Gives the components under it the dates of their page (`dateFormats(lang, timeZone)`, made once by
 * the island's root, which may use them itself).
 *
 * @example
 * ```tsx
 * const dates = useMemo(() => dateFormats(lang, props.timeZone), [lang, props.timeZone]);
 * return <DatesProvider dates={dates}>{body}</DatesProvider>;
 * ```
 */
export function DatesProvider(props: { dates: DateFormats; children: ComponentChildren }) {
  return <Dates.Provider value={props.dates}>{props.children}</Dates.Provider>;
}

/**
 * The dates of the island this component is in: `dateTime(iso)` (the museum's clock, with its
 * zone), `day("YYYY-MM-DD")`, `month("YYYY-MM")`, in the page's language.
 *
 * @example
 * ```tsx
 * const dates = useDates();
 * return <time dateTime={item.createdAt}>{dates.dateTime(item.createdAt)}</time>;
 * ```
 */
export function useDates(): DateFormats {
  return useContext(Dates);
}
