import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { actorEntry } from "@/lib/audit/actor.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/app/openapi.ts";
import { reportCsv, reportFileName } from "@/lib/reports/csv.ts";
import { monthlyReport } from "@/lib/reports/monthly.ts";
import { ReportFileQuerySchema } from "@/lib/reports/schemas.ts";
import { z } from "zod";

export const docs: RouteDocs = {
  GET: {
    summary: "The monthly report as a CSV file",
    description:
      "The figures of `GET /api/reports/monthly`, one row per month, oldest first: for ILS, then " +
      "USD (always both), one-time and monthly donations with counts, all donations, refunds of one-time " +
      "and of monthly gifts, the count of refunds, the net, new and cancelled monthly gifts (count and " +
      "amount per month); then donors, failed one-time payments and failed monthly charges. Amounts in " +
      "major units, two decimals, a dot. UTF-8 with a byte order mark, RFC 4180; the header row in `lang`. " +
      "Each download is written to the audit log (`export`, with the months).",
    tags: ["reports"],
    auth: "bearer",
    query: ReportFileQuerySchema,
    responses: {
      200: {
        description: "The CSV file (UTF-8, with a byte order mark)",
        mediaType: "text/csv",
        schema: z.string(),
        headers: { "Content-Disposition": 'attachment; filename="monthly-report-FROM-TO.csv"' },
      },
      400: { description: "A malformed month, `to` before `from`, or more than 36 months" },
      403: { description: "The admin is not approved yet, or has a role that may not see reports" },
    },
  },
};

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
