import { EVERY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { visitReport } from "@/lib/visits/mod.ts";
import { VisitReportQuerySchema } from "@/lib/visits/schemas.ts";

export { visitReportDocs as docs } from "@/lib/visits/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`): the reports' readers (figures only). */
export const roles = { GET: EVERY_ROLE } satisfies RouteRoles;

/** `GET /api/visits/report?lang` → visits per day and per level, the last 30 days. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const { lang } = readQuery(ctx.url, VisitReportQuerySchema);
    const report = await visitReport(store, { timeZone: config.museumTimeZone, lang }, new Date());
    return Response.json(report, { headers: { "cache-control": "no-store" } });
  },
});
