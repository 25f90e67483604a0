import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { actorEntry } from "@/lib/audit/actor.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { reportCsv, reportFileName } from "@/lib/reports/csv.ts";
import { monthlyReport } from "@/lib/reports/monthly.ts";
import { ReportFileQuerySchema } from "@/lib/reports/schemas.ts";

export { monthlyReportCsvDocs as docs } from "@/lib/reports/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`): owners, admins and finance. */
export const roles = { GET: FINANCE } satisfies RouteRoles;

/** `GET /api/reports/monthly.csv?from&to&lang`. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const { lang, ...range } = readQuery(ctx.url, ReportFileQuerySchema);
    const report = await monthlyReport(store, range, config.museumTimeZone);
    // An export writes nothing of its own: its audit entry is appended before the file is sent.
    await store.audit.append(
      [actorEntry(signedInActor(ctx), "export", null, {
        kind: "monthly-report",
        from: report.from,
        to: report.to,
      })],
      new Date().toISOString(),
    );
    return new Response(reportCsv(report, lang), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${reportFileName(report)}"`,
        "cache-control": "no-store",
      },
    });
  },
});
