import { z } from "zod";
import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { auditCsv, auditFileName } from "@/lib/audit/audit_log.ts";
import { AuditFilterSchema } from "@/lib/audit/schemas.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/app/openapi.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "The audit log as a CSV file",
    description: "Every entry matching the filters (those of `GET /api/audit`), newest first. UTF-8 with " +
      "a byte order mark, RFC 4180 (CRLF, quoted fields). Columns: Time (UTC, `YYYY-MM-DD HH:MM:SS`), " +
      "Action, Who (the email), Admin ID, Address, Target, Changes (JSON). Cells a spreadsheet would " +
      "read as a formula start with `'`. Streamed: a storage failure after the first rows aborts the " +
      "response (it is logged).",
    tags: ["audit"],
    auth: "bearer",
    query: AuditFilterSchema,
    responses: {
      200: {
        description: "The CSV file (UTF-8, with a byte order mark)",
        mediaType: "text/csv",
        schema: z.string(),
        headers: { "Content-Disposition": 'attachment; filename="audit-YYYY-MM-DD.csv" (the UTC date)' },
      },
      400: { description: "An invalid filter" },
      403: { description: "The caller is not an owner or an admin" },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: ADMINS } satisfies RouteRoles;

/** `GET /api/audit/export?actor&action&from&to` → the matching entries as CSV (owners, admins). */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { services, log } = ctx.state;
    const filter = readQuery(ctx.url, AuditFilterSchema);
    const timeZone = services.config.museumTimeZone;
    const body = await auditCsv(services.store, { ...filter, timeZone }, {
      onError: (error) => log.error("audit export failed after it began", { error }),
    });
    return new Response(body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${auditFileName(new Date())}"`,
        "cache-control": "no-store",
      },
    });
  },
});
