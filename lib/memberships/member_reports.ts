/**
 * The reports' membership figures (issue 27, item 8): how many members are active now at each
 * level (the level each is at now), and the renewal rate per month: of the terms that ended in a
 * month (the museum's calendar), how many the member renewed before lapsing (a next term starting
 * before the end's grace ran out: a renewal, an upgrade, a downgrade, a monthly term). A term whose
 * grace still runs is neither yet, and counted apart (`pending`); the rate is of the decided ones.
 *
 * One pass over the memberships ending from the first month on (`listByEnd`, a thousand at a time):
 * a membership with a term ending in the range ends no earlier, so nothing else is read.
 *
 * @module
 */
import { dayOf } from "@/lib/core/zoned_time.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { levelById } from "@/lib/shared/museum.ts";
import type { Membership } from "@/lib/storage/types.ts";
import type { MembershipContext } from "./changes.ts";
import { DEFAULT_GRACE_DAYS } from "./config.ts";
import { levelAt } from "./state.ts";
import { addMonths, lapsesAt } from "./terms.ts";

/** The figures the reports show. */
export interface MembershipReport {
  /** Active members now per level, in the museum's level order (levels no longer offered last). */
  perLevel: { levelId: number; levelName: string; count: number }[];
  total: number;
  /** Oldest first, each month of the range. */
  months: { month: string; ended: number; renewed: number; pending: number; rate: number | null }[];
}

const BATCH = 1_000;

/**
 * The report at `now` for the `months` months up to the current one, on `timeZone`'s calendar.
 *
 * @example
 * ```ts
 * const report = await membershipReport({ store }, new Date(), 12, "Asia/Jerusalem", "en");
 * report.months.at(-1)?.rate; // 0.75
 * ```
 */
export async function membershipReport(
  ctx: MembershipContext,
  now: Date,
  months: number,
  timeZone: string,
  lang: Lang,
): Promise<MembershipReport> {
  const graceDays = ctx.graceDays ?? DEFAULT_GRACE_DAYS;
  const at = now.toISOString();
  const current = dayOf(now, timeZone).slice(0, 7);
  const monthList = Array.from({ length: months }, (_, i) => monthBefore(current, months - 1 - i));
  const byMonth = new Map(monthList.map((month) => [month, { month, ended: 0, renewed: 0, pending: 0 }]));
  const perLevel = new Map<number, number>();
  // A day before the first month's first day in any zone: the range's terms all end after it.
  const from = new Date(Date.parse(`${monthList[0]}-01T00:00:00Z`) - 86_400_000).toISOString();
  const count = (m: Membership) => {
    if (at < m.end) perLevel.set(levelAt(m, now), (perLevel.get(levelAt(m, now)) ?? 0) + 1);
    m.terms.forEach((term, i) => {
      if (term.end > at) return;
      const figures = byMonth.get(dayOf(term.end, timeZone).slice(0, 7));
      if (!figures) return;
      const next = m.terms[i + 1];
      const lapses = lapsesAt(term.end, graceDays);
      figures.ended++;
      if (next && next.start < lapses) figures.renewed++;
      else if (at < lapses) figures.pending++;
    });
  };
  let after: Membership | null = null;
  for (;;) {
    const batch: Membership[] = await ctx.store.memberships.listByEnd(
      { from, to: "9999-12-31T00:00:00.000Z" },
      BATCH,
      after,
    );
    batch.forEach(count);
    if (batch.length < BATCH) break;
    after = batch.at(-1)!;
  }
  const { levels } = await readMuseumSettings(ctx.store);
  const order = [...levels.map((l) => l.id), ...[...perLevel.keys()].filter((id) => !levelById(levels, id))];
  return {
    perLevel: order.map((levelId) => ({
      levelId,
      levelName: levelById(levels, levelId)?.name[lang] ?? "",
      count: perLevel.get(levelId) ?? 0,
    })),
    total: [...perLevel.values()].reduce((a, b) => a + b, 0),
    months: [...byMonth.values()].map((f) => {
      const decided = f.ended - f.pending;
      return { ...f, rate: decided > 0 ? f.renewed / decided : null };
    }),
  };
}

/** `YYYY-MM` `n` months before `month`. */
const monthBefore = (month: string, n: number) => addMonths(`${month}-15T12:00:00.000Z`, -n).slice(0, 7);
