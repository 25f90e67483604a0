import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { auditPage } from "@/lib/audit/audit_log.ts";
import { AuditQuerySchema } from "@/lib/audit/schemas.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";

export { auditLogDocs as docs } from "@/lib/audit/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: ADMINS } satisfies RouteRoles;

/** `GET /api/audit?actor&action&from&to&cursor&limit` → a page of the audit log (owners, admins). */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { cursor, limit, ...filter } = readQuery(ctx.url, AuditQuerySchema);
    const { store, config } = ctx.state.services;
    const page = await auditPage(
      store,
      { ...filter, timeZone: config.museumTimeZone },
      cursor ?? null,
      limit,
    );
    return Response.json(page, { headers: { "cache-control": "no-store" } });
  },
});
