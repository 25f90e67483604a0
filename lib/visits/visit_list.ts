/**
 * The visits as the back office reads them (issue 28): a day's (the Front desk section, in the
 * museum's time zone), and a member's (their page), newest first, a page at a time.
 *
 * @module
 */
import { DomainError } from "@/lib/core/errors.ts";
import { addDays, dayOf, dayStart } from "@/lib/core/zoned_time.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { levelById } from "@/lib/shared/museum.ts";
import type { VisitPage, VisitView } from "@/lib/shared/visits.ts";
import type { Store, Visit, VisitCursor } from "@/lib/storage/types.ts";

/** A cursor this list did not give (the API answers 400). */
export class InvalidVisitCursorError extends DomainError {
  override readonly kind = "invalid";
  constructor() {
    super("cursor is not a cursor of this list", [{ path: "cursor", message: "cursor is not valid" }]);
  }
}

/** `at~id` of the last visit of a page. */
const cursorText = (v: VisitCursor) => `${v.at}~${v.id}`;

function parseCursor(text: string | undefined): VisitCursor | null {
  if (!text) return null;
  const [at, id, extra] = text.split("~");
  if (extra !== undefined || !id || Number.isNaN(Date.parse(at))) throw new InvalidVisitCursorError();
  return { at: new Date(at).toISOString(), id };
}

/**
 * The views of `visits`, their levels named in `lang`.
 *
 * @example
 * ```ts
 * const [view] = await visitViews(store, [visit], "he");
 * ```
 */
export async function visitViews(store: Store, visits: readonly Visit[], lang: Lang): Promise<VisitView[]> {
  const { levels } = await readMuseumSettings(store);
  return visits.map((v) => ({
    id: v.id,
    number: v.number,
    cardholder: v.cardholder,
    guests: v.guests,
    levelId: v.levelId,
    levelName: v.levelId === null ? "" : levelById(levels, v.levelId)?.name[lang] ?? "",
    deskEmail: v.deskEmail,
    at: v.at,
    kind: v.kind,
    reason: v.reason,
  }));
}

async function pageOf(
  store: Store,
  read: (limit: number, before: VisitCursor | null) => Promise<Visit[]>,
  limit: number,
  cursor: string | undefined,
  lang: Lang,
): Promise<VisitPage> {
  const rows = await read(limit + 1, parseCursor(cursor));
  const data = rows.slice(0, limit);
  return {
    data: await visitViews(store, data, lang),
    next: rows.length > limit ? cursorText(data.at(-1)!) : null,
  };
}

/**
 * The visits of one day (`YYYY-MM-DD` in `timeZone`; today when not given), newest first.
 *
 * @example
 * ```ts
 * const page = await visitsOfDay(store, { timeZone: "Asia/Jerusalem", limit: 50, lang: "en" }, new Date());
 * ```
 */
export function visitsOfDay(
  store: Store,
  query: { day?: string; timeZone: string; limit: number; cursor?: string; lang: Lang },
  now: Date,
): Promise<VisitPage> {
  const day = query.day ?? dayOf(now, query.timeZone);
  const range = { from: dayStart(day, query.timeZone), to: dayStart(addDays(day, 1), query.timeZone) };
  return pageOf(
    store,
    (n, before) => store.visits.listByTime(range, n, before),
    query.limit,
    query.cursor,
    query.lang,
  );
}

/**
 * A member's visits, newest first.
 *
 * @example
 * ```ts
 * const page = await visitsOfMember(store, "7K3M-Q9TD", { limit: 20, lang: "en" });
 * ```
 */
export function visitsOfMember(
  store: Store,
  number: string,
  query: { limit: number; cursor?: string; lang: Lang },
): Promise<VisitPage> {
  return pageOf(
    store,
    (n, before) => store.visits.listByNumber(number, n, before),
    query.limit,
    query.cursor,
    query.lang,
  );
}
