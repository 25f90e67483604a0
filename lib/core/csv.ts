/**
 * CSV as spreadsheet programs open it correctly (RFC 4180): a UTF-8 byte order mark first (Hebrew
 * and Cyrillic names stay readable), CRLF line ends, fields quoted when needed. Cells a spreadsheet
 * would read as a formula (`=`, `+`, `-`, `@`, tab, CR at the start) get a leading `'`, as OWASP
 * advises for CSV injection, unless the caller wrote the cell itself (a number). Used by the
 * transaction export, the monthly report and the audit log's export.
 *
 * @module
 */

import { zoneOffset } from "./zoned_time.ts";

/** The UTF-8 byte order mark, first in the file. */
export const BOM = "\uFEFF";

/**
 * One CSV field: a leading `'` when a spreadsheet would read the text as a formula (unless
 * `trusted`), then quoted, with quotes doubled, when it holds a comma, quote, CR or LF.
 *
 * @example
 * ```ts
 * csvField("Levi"); // "Levi"
 * csvField('Dana "D" Levi'); // "\"Dana \"\"D\"\" Levi\""
 * csvField("=HYPERLINK(\"x\")"); // "\"'=HYPERLINK(\"\"x\"\")\""
 * csvField("-5.00", true); // "-5.00"
 * ```
 */
export function csvField(text: string, trusted = false): string {
  const safe = !trusted && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * One CSV record, CRLF-terminated; the cell at `trustedColumn` (a number the caller wrote itself)
 * is not defused.
 *
 * @example
 * ```ts
 * csvRecord(["a", "b,c"]); // "a,\"b,c\"\r\n"
 * ```
 */
export function csvRecord(cells: readonly string[], trustedColumn = -1): string {
  return cells.map((cell, i) => csvField(cell, i === trustedColumn)).join(",") + "\r\n";
}

/**
 * An instant as `YYYY-MM-DD HH:MM:SS` in UTC.
 *
 * @example
 * ```ts
 * formatUtc("2026-11-22T09:05:07.123Z"); // "2026-11-22 09:05:07"
 * ```
 */
export function formatUtc(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "" : date.toISOString().slice(0, 19).replace("T", " ");
}

/**
 * An instant as `YYYY-MM-DD HH:MM:SS` on the wall clock of `timeZone` (the museum's: its day is
 * the day the chart and the monthly report count the instant on); empty for an unreadable date.
 * In the hour the clocks go back, two instants an hour apart read the same.
 *
 * @example
 * ```ts
 * formatInZone("2026-11-22T22:30:00.000Z", "Asia/Jerusalem"); // "2026-11-23 00:30:00"
 * ```
 */
export function formatInZone(iso: string, timeZone: string): string {
  const ms = new Date(iso).getTime();
  if (Number.isNaN(ms)) return "";
  return formatUtc(new Date(ms + zoneOffset(ms, timeZone)).toISOString());
}

/**
 * Minor units as major units with two decimals and a dot, exactly (no floating point).
 *
 * @example
 * ```ts
 * formatAmount(10000); // "100.00"
 * formatAmount(5); // "0.05"
 * formatAmount(null); // ""
 * ```
 */
export function formatAmount(minor: number | null): string {
  if (minor === null || !Number.isSafeInteger(minor)) return "";
  const abs = Math.abs(minor);
  return `${minor < 0 ? "-" : ""}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}
