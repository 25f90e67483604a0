/**
 * Dates and times as the back office writes them (issue 26): in the viewer's language, a time on
 * the museum's clock (`config.museumTimeZone`, which the page passes to its island) followed by
 * that zone's offset, so "01:00" is never read as someone else's 01:00; calendar days and months
 * (the chart's days, the report's months) as the keys they are, never shifted by a zone. In
 * English this is the spec's US format (short month, day, year, hour and minute), the offset after.
 *
 * Built on `Intl.DateTimeFormat`; a formatter is costly to make (a page's first one builds the
 * locale's patterns, tens of ms on a phone) and cheap to use, so each language, zone and style
 * keeps one. Pure and client-safe.
 *
 * @module
 */

/** The museum's time zone when `MUSEUM_TIME_ZONE` is not set. */
export const DEFAULT_TIME_ZONE = "Asia/Jerusalem";

const DATE_TIME: Intl.DateTimeFormatOptions = {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZoneName: "shortOffset",
};
const MEDIUM_DAY: Intl.DateTimeFormatOptions = { dateStyle: "medium" };
const LONG_MONTH: Intl.DateTimeFormatOptions = { month: "long", year: "numeric" };

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Bounded: a page uses a few languages, zones and styles; a long-lived server the same few. */
const MAX_FORMATTERS = 200;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${lang}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, options);
    if (formatters.size < MAX_FORMATTERS) formatters.set(key, format);
  }
  return format;
}

/**
 * An instant in `lang` on the clock of `timeZone`, with the zone's offset; null for no or an
 * unreadable date.
 *
 * @example
 * ```ts
 * formatDateTime("2026-11-28T23:00:00Z", "en", "Asia/Jerusalem"); // "Nov 29, 2026, 1:00 AM GMT+2"
 * formatDateTime("2026-11-28T23:00:00Z", "he", "Asia/Jerusalem"); // "29 בנוב׳ 2026, 01:00 GMT+2"
 * ```
 */
export function formatDateTime(
  iso: string | null | undefined,
  lang: string,
  timeZone: string,
): string | null {
  return formatInstant(iso, lang, { ...DATE_TIME, timeZone });
}

/**
 * The day of an instant on the clock of `timeZone` in `lang` (medium, "Nov 29, 2026"), without the
 * time: a membership's end, a term's start. Null for no or an unreadable date.
 *
 * @example
 * ```ts
 * formatInstantDay("2026-11-28T23:00:00Z", "en", "Asia/Jerusalem"); // "Nov 29, 2026"
 * ```
 */
export function formatInstantDay(
  iso: string | null | undefined,
  lang: string,
  timeZone: string,
): string | null {
  return formatInstant(iso, lang, { ...MEDIUM_DAY, timeZone });
}

/** An instant (ISO 8601) as `options` say, in `lang`; null for no or an unreadable date. */
function formatInstant(
  iso: string | null | undefined,
  lang: string,
  options: Intl.DateTimeFormatOptions,
): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return formatter(lang, options).format(date);
}

/**
 * A calendar day (`YYYY-MM-DD`, e.g. a day of the chart, already the museum's) in `lang`, as
 * `options` say (default: medium, "Nov 29, 2026"); null for anything else.
 *
 * @example
 * ```ts
 * formatCalendarDay("2026-11-29", "en", { month: "short", day: "numeric" }); // "Nov 29"
 * ```
 */
export function formatCalendarDay(
  day: string,
  lang: string,
  options: Intl.DateTimeFormatOptions = MEDIUM_DAY,
): string | null {
  if (!DAY.test(day)) return null;
  const date = new Date(`${day}T12:00:00Z`);
  if (date.toISOString().slice(0, 10) !== day) return null; // e.g. February 30th
  return formatter(lang, { ...options, timeZone: "UTC" }).format(date);
}

/**
 * A month (`YYYY-MM`, e.g. one of the monthly report's) in `lang`, as `options` say (default: long
 * name and year, "November 2026"); null for anything else.
 *
 * @example
 * ```ts
 * formatCalendarMonth("2026-11", "he"); // "נובמבר 2026"
 * ```
 */
export function formatCalendarMonth(
  month: string,
  lang: string,
  options: Intl.DateTimeFormatOptions = LONG_MONTH,
): string | null {
  if (!MONTH.test(month)) return null;
  return formatter(lang, { ...options, timeZone: "UTC" }).format(new Date(`${month}-15T12:00:00Z`));
}

/** One page's dates: its language and the museum's zone, bound. */
export interface DateFormats {
  lang: string;
  timeZone: string;
  /** {@link formatDateTime} in this language and zone. */
  dateTime(iso: string | null | undefined): string | null;
  /** {@link formatInstantDay} in this language and zone. */
  date(iso: string | null | undefined): string | null;
  /** {@link formatCalendarDay} in this language. */
  day(day: string, options?: Intl.DateTimeFormatOptions): string | null;
  /** {@link formatCalendarMonth} in this language. */
  month(month: string, options?: Intl.DateTimeFormatOptions): string | null;
}

/**
 * The dates of a page in `lang`, its times on the clock of `timeZone` (the museum's).
 *
 * @example
 * ```ts
 * const dates = dateFormats("he", "Asia/Jerusalem");
 * dates.dateTime("2026-11-28T23:00:00Z"); // "29 בנוב׳ 2026, 01:00 GMT+2"
 * ```
 */
export function dateFormats(lang: string, timeZone: string): DateFormats {
  return {
    lang,
    timeZone,
    dateTime: (iso) => formatDateTime(iso, lang, timeZone),
    date: (iso) => formatInstantDay(iso, lang, timeZone),
    day: (day, options) => formatCalendarDay(day, lang, options),
    month: (month, options) => formatCalendarMonth(month, lang, options),
  };
}
