import { EVERY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { dailyTotals } from "@/lib/reports/daily_totals.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { DailyTotalsQuerySchema } from "@/lib/reports/transaction_schemas.ts";

export { dailyTotalsDocs as docs } from "@/lib/reports/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: EVERY_ROLE } satisfies RouteRoles;

/** `GET /api/transaction/daily-totals?days`. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { services } = ctx.state;
    const query = readQuery(ctx.url, DailyTotalsQuerySchema);
    return Response.json(await dailyTotals(services.store, query, services.config.museumTimeZone));
  },
});
