/**
 * Days and months in a time zone (the museum's: `config.museumTimeZone`, `MUSEUM_TIME_ZONE`,
 * `Asia/Jerusalem` by default): where a day or a month starts as an instant, and which day an
 * instant falls on. The back office's chart, the monthly report, the CSV's day column and the
 * overview all count days with these, so a gift at 01:00 in Jerusalem is on the same day in each.
 *
 * Built on `Intl.DateTimeFormat` (the zone database the runtime ships); no library needed.
 *
 * @module
 */

// The default museum time zone: one constant for the server and the islands.
export { DEFAULT_TIME_ZONE } from "@/lib/shared/dates.ts";

const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone (creating one costs far more than using it). */
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    // Bounded: zones come from configuration, a handful at most.
    if (formatters.size < 64) formatters.set(timeZone, f);
  }
  return f;
}

/**
 * Whether `timeZone` is an IANA zone name this runtime knows (e.g. `Asia/Jerusalem`, `UTC`).
 *
 * @example
 * ```ts
 * isTimeZone("Asia/Jerusalem"); // true
 * isTimeZone("Mars/Olympus"); // false
 * ```
 */
export function isTimeZone(timeZone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(timeZone)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The offset of `timeZone` from UTC at the instant `ms`, in ms (positive east of Greenwich).
 *
 * @example
 * ```ts
 * zoneOffset(Date.parse("2026-07-01T00:00:00Z"), "Asia/Jerusalem"); // 10_800_000 (UTC+3)
 * ```
 */
export function zoneOffset(ms: number, timeZone: string): number {
  const parts = partsFormatter(timeZone).formatToParts(new Date(ms));
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const local = Date.UTC(
    part("year"),
    part("month") - 1,
    part("day"),
    part("hour"),
    part("minute"),
    part("second"),
  );
  return local - Math.floor(ms / 1000) * 1000;
}

/** The instant (ms) of local wall-clock `utcWall` (a UTC timestamp read as local time) in `timeZone`. */
function fromWall(utcWall: number, timeZone: string): number {
  // Twice: the offset at the guess may differ from the offset at the answer (a DST change between).
  const guess = utcWall - zoneOffset(utcWall, timeZone);
  return utcWall - zoneOffset(guess, timeZone);
}

/**
 * The day (`YYYY-MM-DD`) the instant `at` falls on in `timeZone`.
 *
 * @example
 * ```ts
 * dayOf("2026-11-28T23:30:00Z", "Asia/Jerusalem"); // "2026-11-29" (01:30 in Jerusalem)
 * ```
 */
export function dayOf(at: string | number | Date, timeZone: string): string {
  const ms = typeof at === "number" ? at : new Date(at).getTime();
  return new Date(ms + zoneOffset(ms, timeZone)).toISOString().slice(0, 10);
}

/**
 * The instant (ISO 8601) a day `YYYY-MM-DD` starts in `timeZone` (its local midnight); throws a
 * `RangeError` for a malformed day.
 *
 * @example
 * ```ts
 * dayStart("2026-11-29", "Asia/Jerusalem"); // "2026-11-28T22:00:00.000Z"
 * ```
 */
export function dayStart(day: string, timeZone: string): string {
  const m = DAY_KEY.exec(day);
  if (!m) throw new RangeError(`not a YYYY-MM-DD day: ${day}`);
  return new Date(fromWall(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])), timeZone)).toISOString();
}

/**
 * The day `days` after `day` (`YYYY-MM-DD`; negative for before), by the calendar.
 *
 * @example
 * ```ts
 * addDays("2026-03-31", 1); // "2026-04-01"
 * ```
 */
export function addDays(day: string, days: number): string {
  const m = DAY_KEY.exec(day);
  if (!m) throw new RangeError(`not a YYYY-MM-DD day: ${day}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days)).toISOString().slice(0, 10);
}

/**
 * The instant (ISO 8601) a month starts in `timeZone` (local midnight of its first day); `index`
 * counts months as year * 12 + month - 1.
 *
 * @example
 * ```ts
 * monthStart(2026 * 12 + 0, "Asia/Jerusalem"); // "2025-12-31T22:00:00.000Z"
 * ```
 */
export function monthStart(index: number, timeZone: string): string {
  return new Date(fromWall(Date.UTC(Math.floor(index / 12), index % 12, 1), timeZone)).toISOString();
}

/**
 * The month (year * 12 + month - 1) the instant `at` falls in, in `timeZone`.
 *
 * @example
 * ```ts
 * monthOf("2026-01-31T23:00:00Z", "Asia/Jerusalem"); // 2026 * 12 + 1 (February 1st, 01:00)
 * ```
 */
export function monthOf(at: string | number | Date, timeZone: string): number {
  const [y, m] = dayOf(at, timeZone).split("-").map(Number);
  return y * 12 + m - 1;
}
