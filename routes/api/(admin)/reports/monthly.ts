import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/app/openapi.ts";
import { monthlyReport } from "@/lib/reports/monthly.ts";
import { MonthlyReportSchema, ReportQuerySchema } from "@/lib/reports/schemas.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "The accountant's monthly report",
    description: "Per month in the museum's time zone (`MUSEUM_TIME_ZONE`, Asia/Jerusalem by default; the " +
      "answer's `timeZone`), `from` to `to` included (at most " +
      "36 months; default the last twelve): successful donations, refunds and net per currency, one-time " +
      "and monthly (minor units, with counts); distinct donors (by email); monthly gifts started and " +
      "cancelled; failed payments and charges. A gift counts in the month it was made, a refund in the " +
      "month it was made. The sums equal those of the transaction lists over the same instants.",
    tags: ["reports"],
    auth: "bearer",
    query: ReportQuerySchema,
    responses: {
      200: { description: "The report", schema: MonthlyReportSchema },
      400: { description: "A malformed month, `to` before `from`, or more than 36 months" },
      403: { description: "The admin is not approved yet, or has a role that may not see reports" },
    },
  },
};

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
