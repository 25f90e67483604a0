import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { reportChartSvg } from "@/lib/reports/chart.ts";
import { monthlyReport } from "@/lib/reports/monthly.ts";
import { ReportChartQuerySchema } from "@/lib/reports/schemas.ts";

export { monthlyReportChartDocs as docs } from "@/lib/reports/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`): owners, admins and finance. */
export const roles = { GET: FINANCE } satisfies RouteRoles;

/** `GET /api/reports/monthly.svg?from&to&lang&width`. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const { lang, width, ...range } = readQuery(ctx.url, ReportChartQuerySchema);
    const report = await monthlyReport(store, range, config.museumTimeZone);
    return new Response(reportChartSvg(report, lang, width), {
      headers: { "content-type": "image/svg+xml; charset=utf-8", "cache-control": "no-store" },
    });
  },
});
