import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { auditCsv, auditFileName } from "@/lib/audit/audit_log.ts";
import { AuditFilterSchema } from "@/lib/audit/schemas.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";

export { auditExportDocs as docs } from "@/lib/audit/api_docs.ts";

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
