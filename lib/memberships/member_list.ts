/**
 * The back office's members list (issue 27, item 8): memberships by end (then address), filtered
 * by state, by the level of their last term and by "ending within N days", searched by member
 * number (exact), address (exact or its start) or the member's name, a page at a time.
 *
 * A state is worked out, never stored (`state.ts`), so a state filter reads a range of ends and
 * keeps the memberships in that state: active = ends after now (nothing else to check); grace =
 * ended within the grace days plus billing's whole retry span (a monthly member whose declined
 * charge is being retried is in grace however long ago the paid period ended, and retries end
 * within that span), each checked; lapsed = ended before now, each checked. The level filter reads
 * storage's level index; a search holding "@" reads the addresses from its start (storage's
 * email order); another reads the filtered list and keeps the names holding its words (and, for
 * one word, the addresses starting with it). A call reads at most {@link SCAN_BUDGET} memberships: a page may then hold fewer rows than
 * asked with a cursor to go on from (as the transactions' search does), and only `next === null`
 * ends the list.
 *
 * @module
 */
import { DomainError } from "@/lib/core/errors.ts";
import { RETRY_DAYS } from "@/lib/monthly_gifts/mod.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { MemberPage, MemberRow, MembershipState } from "@/lib/shared/memberships.ts";
import { levelById, type MembershipLevel } from "@/lib/shared/museum.ts";
import type { Membership, Store } from "@/lib/storage/types.ts";
import type { MembershipContext } from "./changes.ts";
import { DEFAULT_GRACE_DAYS } from "./config.ts";
import { memberNumberOf } from "./numbers.ts";
import { membershipState } from "./state.ts";
import { lapsesAt } from "./terms.ts";

/** What the list is asked for. */
export interface MemberListQuery {
  state?: MembershipState;
  /** The level of the last term. */
  level?: number;
  /** Only those ending from now to this many days on. */
  expiring?: number;
  search?: string;
  limit: number;
  cursor?: string;
  lang: Lang;
}

/** The most memberships one call reads (a filtered or searched page stops there with a cursor). */
export const SCAN_BUDGET = 500;

const DAY = 86_400_000;
const EARLIEST = "1970-01-01T00:00:00.000Z";
const LATEST = "9999-12-31T00:00:00.000Z";
/** Days a monthly charge is retried after it is declined, in all. */
const RETRY_SPAN_DAYS = RETRY_DAYS.reduce((sum, days) => sum + days, 0) + 1;

/** A cursor that is not one this list gave (the API answers 400). */
export class InvalidMemberCursorError extends DomainError {
  override readonly kind = "invalid";
  constructor() {
    super("cursor is not a cursor of this list", [{ path: "cursor", message: "cursor is not valid" }]);
  }
}

type Cursor = { end: string; email: string };

/** `end~email`: the last membership a page read (an ISO instant holds no `~`). */
const cursorText = (m: Cursor) => `${m.end}~${m.email}`;

function parseCursor(text: string | undefined): Cursor | null {
  if (!text) return null;
  const at = text.indexOf("~");
  const end = text.slice(0, at);
  const email = text.slice(at + 1);
  if (at < 1 || email === "" || email.length > 320 || Number.isNaN(Date.parse(end))) {
    throw new InvalidMemberCursorError();
  }
  return { end: new Date(end).toISOString(), email };
}

/** The ends the filters allow, `from <= end < to`, or null when none can match. */
function endRange(query: MemberListQuery, now: Date, graceDays: number): { from: string; to: string } | null {
  const t = now.getTime();
  let from = EARLIEST;
  let to = LATEST;
  const within = (a: string, b: string) => {
    from = a > from ? a : from;
    to = b < to ? b : to;
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  if (query.state === "active") within(iso(t), LATEST);
  if (query.state === "grace") within(iso(t - (Math.max(graceDays, RETRY_SPAN_DAYS) + 1) * DAY), iso(t));
  if (query.state === "lapsed") within(EARLIEST, iso(t));
  if (query.expiring !== undefined) within(iso(t), iso(t + query.expiring * DAY));
  return from < to ? { from, to } : null;
}

/** Reads what a row shows of one membership: its donor's name, its state now. */
export async function memberRow(
  store: Store,
  m: Membership,
  levels: readonly MembershipLevel[],
  now: Date,
  graceDays: number,
  lang: Lang,
): Promise<MemberRow> {
  const ended = now.toISOString() >= m.end;
  const [donor, billing] = await Promise.all([
    store.donors.get(m.donorId),
    ended && m.subscriptionId ? store.subscriptions.get(m.subscriptionId) : null,
  ]);
  const levelId = m.terms.at(-1)!.levelId;
  return {
    number: m.number,
    email: m.email,
    name: donor ? `${donor.firstName} ${donor.lastName}`.trim() : "",
    levelId,
    levelName: levelById(levels, levelId)?.name[lang] ?? "",
    state: membershipState(m, now, billing, graceDays),
    end: m.end,
    graceUntil: lapsesAt(m.end, graceDays),
    cardholders: [...m.cardholders],
    monthly: m.subscriptionId !== null,
  };
}

/**
 * A page of the members list at `now`.
 *
 * @example
 * ```ts
 * const page = await listMembers({ store }, { state: "active", limit: 50, lang: "en" }, new Date());
 * page.data[0].number; // "7K3M-Q9TD"
 * ```
 */
export async function listMembers(
  ctx: MembershipContext,
  query: MemberListQuery,
  now: Date,
): Promise<MemberPage> {
  const { store } = ctx;
  const graceDays = ctx.graceDays ?? DEFAULT_GRACE_DAYS;
  const { levels } = await readMuseumSettings(store);
  const after = parseCursor(query.cursor);
  const range = endRange(query, now, graceDays);
  const search = query.search?.trim() ?? "";
  if (range === null) return { data: [], next: null };
  const fits = (m: Membership) =>
    m.end >= range.from && m.end < range.to &&
    (query.level === undefined || m.terms.at(-1)!.levelId === query.level);
  const row = (m: Membership) => memberRow(store, m, levels, now, graceDays, query.lang);
  const kept = (r: MemberRow) => query.state === undefined || r.state === query.state;

  const number = search === "" ? null : memberNumberOf(search);
  if (number !== null) {
    const m = await store.memberships.getByNumber(number);
    const r = m && fits(m) ? await row(m) : null;
    return { data: r && kept(r) ? [r] : [], next: null };
  }
  const byEmail = search.includes("@");
  const words = byEmail ? [] : search.toLowerCase().split(/\s+/).filter(Boolean);
  const read = (limit: number, from: Cursor | null): Promise<Membership[]> =>
    byEmail
      ? store.memberships.listByEmailPrefix(search, limit, from?.email)
      : query.level !== undefined
      ? store.memberships.listByLevel(query.level, range, limit, from)
      : store.memberships.listByEnd(range, limit, from);

  const data: MemberRow[] = [];
  let last: Cursor | null = after;
  let budget = SCAN_BUDGET;
  while (data.length < query.limit && budget > 0) {
    const size = Math.min(
      budget,
      query.state || words.length || byEmail ? 100 : query.limit - data.length + 1,
    );
    const batch = await read(size, last);
    budget -= batch.length;
    for (const m of batch) {
      last = m;
      if (!fits(m)) continue;
      const r = await row(m);
      // Words of the name, or the start of an address typed without its "@".
      const named = words.every((w) => r.name.toLowerCase().includes(w)) ||
        (words.length === 1 && r.email.startsWith(words[0]));
      if (kept(r) && named) data.push(r);
      if (data.length === query.limit) {
        // Whether anything is left: the rest of this batch, or a full batch read.
        const more = m !== batch.at(-1) || batch.length === size;
        return { data, next: more ? cursorText(m) : null };
      }
    }
    if (batch.length < size) return { data, next: null };
  }
  return { data, next: last && budget <= 0 ? cursorText(last) : null };
}
