import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { membershipReport } from "@/lib/memberships/member_reports.ts";
import { MembershipReportQuerySchema } from "@/lib/memberships/schemas.ts";

export { membershipReportDocs as docs } from "@/lib/memberships/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`): owners, admins and finance, as the monthly report. */
export const roles = { GET: FINANCE } satisfies RouteRoles;

/** `GET /api/reports/memberships?months&lang` → active members per level, renewal rate per month. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const { months, lang } = readQuery(ctx.url, MembershipReportQuerySchema);
    const members = { store, graceDays: config.memberships.graceDays };
    const report = await membershipReport(members, new Date(), months, config.museumTimeZone, lang);
    return Response.json(report, { headers: { "cache-control": "no-store" } });
  },
});
