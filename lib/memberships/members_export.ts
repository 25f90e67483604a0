/**
 * The members list as a CSV file (issue 27, item 8): every membership the list's filters and
 * search match, in the list's order, streamed a page at a time (`listMembers`), so the file costs
 * memory for a page whatever its length. As the transaction export writes it (`lib/core/csv.ts`):
 * a UTF-8 byte order mark (Hebrew names open right in a spreadsheet), CRLF line ends, fields quoted
 * when needed, and every cell a person typed (names, cardholders) defused when a spreadsheet would
 * read it as a formula. The header and the states and levels are in the asked language; dates are
 * the museum's days.
 *
 * @module
 */
import { BOM, csvRecord } from "@/lib/core/csv.ts";
import { dayOf } from "@/lib/core/zoned_time.ts";
import { translator } from "@/lib/core/i18n.ts";
import type { MemberRow } from "@/lib/shared/memberships.ts";
import type { MembershipContext } from "./changes.ts";
import { listMembers, type MemberListQuery } from "./member_list.ts";

/** The columns, in order: their words are under `membersAdmin.csv` in the locales. */
export const MEMBER_COLUMNS = [
  "number",
  "name",
  "email",
  "level",
  "state",
  "validUntil",
  "graceUntil",
  "monthly",
  "cardholders",
] as const;

/** Rows read per page of the stream. */
const EXPORT_PAGE = 100;

/**
 * The file, as a stream: the byte order mark and header first, then a page of rows per pull.
 *
 * @example
 * ```ts
 * const body = membersCsv({ store }, { lang: "he", limit: 100 }, new Date(), "Asia/Jerusalem");
 * ```
 */
export function membersCsv(
  ctx: MembershipContext,
  query: Omit<MemberListQuery, "cursor" | "limit">,
  now: Date,
  timeZone: string,
): ReadableStream<Uint8Array> {
  const t = translator(query.lang);
  const encoder = new TextEncoder();
  const line = (r: MemberRow) =>
    csvRecord([
      r.number,
      r.name,
      r.email,
      r.levelName,
      t(`membersAdmin.states.${r.state}`),
      dayOf(r.end, timeZone),
      dayOf(r.graceUntil, timeZone),
      t(r.monthly ? "membersAdmin.csv.yes" : "membersAdmin.csv.no"),
      r.cardholders.join("; "),
    ]);
  let cursor: string | null | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const header = MEMBER_COLUMNS.map((c) => t(`membersAdmin.csv.${c}`));
      controller.enqueue(encoder.encode(BOM + csvRecord(header)));
    },
    async pull(controller) {
      const page = await listMembers(ctx, { ...query, limit: EXPORT_PAGE, cursor: cursor ?? undefined }, now);
      if (page.data.length > 0) controller.enqueue(encoder.encode(page.data.map(line).join("")));
      cursor = page.next;
      if (cursor === null) controller.close();
    },
  });
}

/** `members-2026-11-29.csv`: the museum's day of the export. */
export const membersFileName = (now: Date, timeZone: string) =>
  `members-${dayOf(now.toISOString(), timeZone)}.csv`;
