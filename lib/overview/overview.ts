/**
 * The back office's overview (issue 26): "what needs me today", for the signed-in admin's role.
 * Each part is read only for the roles that see it (`OVERVIEW_PARTS` of `lib/shared/overview.ts`),
 * all at once; days and months are the museum's (`config.museumTimeZone`).
 *
 * @module
 */
import type { AdminRole } from "@/lib/staff/mod.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { type Overview, type OverviewPart, partsFor } from "@/lib/shared/overview.ts";
import type { Store } from "@/lib/storage/types.ts";
import { approvals, emailFailing, kiosksUnseen, monthlyFailing, refundsPending } from "./attention.ts";
import { giftFigures } from "./gifts.ts";
import { museumPeriods } from "./periods.ts";

/** What the overview reads. */
export interface OverviewContext {
  store: Store;
  /** The museum's time zone (`config.museumTimeZone`). */
  timeZone: string;
  /** The time to read at (now by default). */
  now?: Date;
}

/**
 * The overview `role` may see, its links in `lang`.
 *
 * @example
 * ```ts
 * const overview = await readOverview({ store, timeZone: config.museumTimeZone }, { role: "viewer", lang: "he" });
 * overview.gifts?.today.totals; // [{ currency: 1, count: 2, amount: 36_000 }]
 * overview.email; // undefined: not a viewer's
 * ```
 */
export async function readOverview(
  ctx: OverviewContext,
  who: { role: AdminRole; lang: Lang },
): Promise<Overview> {
  const now = ctx.now ?? new Date();
  const periods = museumPeriods(now, ctx.timeZone);
  const part = { store: ctx.store, timeZone: ctx.timeZone, now, lang: who.lang };
  const sees = new Set<OverviewPart>(partsFor(who.role));
  const [gifts, failing, refunds, email, waiting, kiosks] = await Promise.all([
    sees.has("gifts") ? giftFigures(ctx.store, periods, who.lang) : undefined,
    sees.has("monthlyFailing") ? monthlyFailing(part) : undefined,
    sees.has("refunds") ? refundsPending(part) : undefined,
    sees.has("email") ? emailFailing(part) : undefined,
    sees.has("approvals") ? approvals(part) : undefined,
    sees.has("kiosks") ? kiosksUnseen(part) : undefined,
  ]);
  const overview: Overview = { timeZone: ctx.timeZone, today: periods.today, at: now.toISOString() };
  if (gifts) overview.gifts = gifts;
  if (failing) overview.monthlyFailing = failing;
  if (refunds) overview.refunds = refunds;
  if (email) overview.email = email;
  if (waiting) overview.approvals = waiting;
  if (kiosks) overview.kiosks = kiosks;
  return overview;
}
