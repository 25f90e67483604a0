import { EVERY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { dailyTotals } from "@/lib/reports/daily_totals.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { DailyTotalsChartQuerySchema } from "@/lib/reports/transaction_schemas.ts";
import { dailyTotalsChartSvg } from "@/components/DailyTotalsSkeleton.tsx";

export { dailyTotalsChartDocs as docs } from "@/lib/reports/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`): whoever may read the figures. */
export const roles = { GET: EVERY_ROLE } satisfies RouteRoles;

/** `GET /api/transaction/daily-totals.svg?days&lang&width`. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const { lang, width, days } = readQuery(ctx.url, DailyTotalsChartQuerySchema);
    const totals = await dailyTotals(store, { days }, config.museumTimeZone);
    return new Response(dailyTotalsChartSvg(totals, lang, width), {
      headers: { "content-type": "image/svg+xml; charset=utf-8", "cache-control": "no-store" },
    });
  },
});
