import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { monthlyReport } from "@/lib/reports/monthly.ts";
import { ReportQuerySchema } from "@/lib/reports/schemas.ts";

export { monthlyReportDocs as docs } from "@/lib/reports/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`): owners, admins and finance. */
export const roles = { GET: FINANCE } satisfies RouteRoles;

/** `GET /api/reports/monthly?from&to`. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const query = readQuery(ctx.url, ReportQuerySchema);
    return Response.json(await monthlyReport(store, query, config.museumTimeZone), {
      headers: { "cache-control": "no-store" },
    });
  },
});
