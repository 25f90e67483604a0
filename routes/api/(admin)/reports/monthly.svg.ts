import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/app/openapi.ts";
import { reportChartSvg } from "@/lib/reports/chart.ts";
import { monthlyReport } from "@/lib/reports/monthly.ts";
import { ReportFileQuerySchema } from "@/lib/reports/schemas.ts";
import { z } from "zod";

export const docs: RouteDocs = {
  GET: {
    summary: "The monthly report's chart, drawn on the server",
    description: "An SVG image of the figures of `GET /api/reports/monthly`: one panel per currency, per " +
      "month a bar of donations (one-time and monthly) and a bar of refunds, words in `lang` (right to " +
      'left in Hebrew). One `role="img"` named by its title and description; the back office puts it in ' +
      "the report page beside the table.",
    tags: ["reports"],
    auth: "bearer",
    query: ReportFileQuerySchema,
    responses: {
      200: { description: "The chart", mediaType: "image/svg+xml", schema: z.string() },
      400: { description: "A malformed month, `to` before `from`, or more than 36 months" },
      403: { description: "The admin is not approved yet, or has a role that may not see reports" },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`): owners, admins and finance. */
export const roles = { GET: FINANCE } satisfies RouteRoles;

/** `GET /api/reports/monthly.svg?from&to&lang`. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const { lang, ...range } = readQuery(ctx.url, ReportFileQuerySchema);
    const report = await monthlyReport(store, range, config.museumTimeZone);
    return new Response(reportChartSvg(report, lang), {
      headers: { "content-type": "image/svg+xml; charset=utf-8", "cache-control": "no-store" },
    });
  },
});
