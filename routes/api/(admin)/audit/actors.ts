import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { auditActors } from "@/lib/audit/audit_log.ts";
import { AuditActorsSchema } from "@/lib/audit/schemas.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "The staff the audit log can be filtered by",
    description: "Active and deactivated admins (id, email, name), by email: the `actor` filter's choices.",
    tags: ["audit"],
    auth: "bearer",
    responses: {
      200: { description: "The admins", schema: AuditActorsSchema },
      403: { description: "The caller is not an owner or an admin" },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: ADMINS } satisfies RouteRoles;

/** `GET /api/audit/actors` → the admins the log's "who" filter offers (owners, admins). */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    return Response.json(await auditActors(ctx.state.services.store), {
      headers: { "cache-control": "no-store" },
    });
  },
});
