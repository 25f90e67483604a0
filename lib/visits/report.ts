/**
 * Visits in the reports (issue 28): per day (in the museum's time zone) and per level over the last
 * 30 days, with guests and overrides. Read a page at a time from storage's time index, at most
 * {@link REPORT_BUDGET} visits (a museum's month of visits fits; more is said, `truncated`).
 *
 * @module
 */
import { addDays, dayOf, dayStart } from "@/lib/core/zoned_time.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { levelById } from "@/lib/shared/museum.ts";
import type { VisitReport } from "@/lib/shared/visits.ts";
import type { Store, Visit } from "@/lib/storage/types.ts";

/** The days a report covers, today included. */
export const REPORT_DAYS = 30;
/** The most visits one report reads. */
export const REPORT_BUDGET = 50_000;

/**
 * The visits' report of the {@link REPORT_DAYS} days up to `now`'s day.
 *
 * @example
 * ```ts
 * const report = await visitReport(store, { timeZone: "Asia/Jerusalem", lang: "en" }, new Date());
 * report.perDay.at(-1); // { day: "2026-11-29", visits: 12, guests: 7, overrides: 1 }
 * ```
 */
export async function visitReport(
  store: Store,
  query: { timeZone: string; lang: Lang },
  now: Date,
): Promise<VisitReport> {
  const today = dayOf(now, query.timeZone);
  const first = addDays(today, 1 - REPORT_DAYS);
  const range = { from: dayStart(first, query.timeZone), to: dayStart(addDays(today, 1), query.timeZone) };
  const perDay = new Map<string, { day: string; visits: number; guests: number; overrides: number }>();
  for (let i = 0; i < REPORT_DAYS; i++) {
    const day = addDays(first, i);
    perDay.set(day, { day, visits: 0, guests: 0, overrides: 0 });
  }
  const perLevel = new Map<number | null, { visits: number; guests: number }>();
  let before: Visit | null = null;
  let read = 0;
  let truncated = false;
  while (true) {
    const batch: Visit[] = await store.visits.listByTime(range, 1_000, before);
    for (const v of batch) {
      const day = perDay.get(dayOf(v.at, query.timeZone));
      if (day) {
        day.visits++;
        day.guests += v.guests;
        if (v.kind === "override") day.overrides++;
      }
      const level = perLevel.get(v.levelId) ?? { visits: 0, guests: 0 };
      level.visits++;
      level.guests += v.guests;
      perLevel.set(v.levelId, level);
    }
    read += batch.length;
    if (batch.length < 1_000) break;
    if (read >= REPORT_BUDGET) {
      truncated = true;
      break;
    }
    before = batch.at(-1)!;
  }
  const { levels } = await readMuseumSettings(store);
  return {
    from: first,
    to: today,
    perDay: [...perDay.values()],
    perLevel: [...perLevel.entries()]
      .map(([levelId, figures]) => ({
        levelId,
        levelName: levelId === null ? "" : levelById(levels, levelId)?.name[query.lang] ?? "",
        ...figures,
      }))
      .sort((a, b) => (a.levelId ?? 1e9) - (b.levelId ?? 1e9)),
    truncated,
  };
}
