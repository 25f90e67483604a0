/**
 * Which dates a back-office island writes: its page's language and the museum's time zone, given
 * by the island's root ({@link DatesZone}) and read by `useDates` of `dates.tsx`, which makes the
 * formats. Apart from that module so a page whose island writes no date (the two-factor page)
 * does not ship the formats (`lib/shared/dates.ts`) with the shell.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { createContext } from "preact";
import { useMemo } from "preact/hooks";
import type { DateFormats } from "@/lib/shared/dates.ts";

/** A language and a zone, or the formats already made (`DatesProvider`); null outside both. */
export type DatesSource = Pick<DateFormats, "lang" | "timeZone"> | DateFormats;

/** The dates of the components under a provider. */
export const DatesContext = createContext<DatesSource | null>(null);

/**
 * Gives the components under it the dates of their page: `lang` on the clock of `timeZone`.
 *
 * @example
 * ```tsx
 * <DatesZone lang={lang} timeZone={props.timeZone}>{body}</DatesZone>
 * ```
 */
export function DatesZone(props: { lang: string; timeZone: string; children: ComponentChildren }) {
  const { lang, timeZone } = props;
  // The same value while both stay: the context's readers render again only when it changes.
  const value = useMemo(() => ({ lang, timeZone }), [lang, timeZone]);
  return <DatesContext.Provider value={value}>{props.children}</DatesContext.Provider>;
}
