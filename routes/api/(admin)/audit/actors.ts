import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { auditActors } from "@/lib/audit/audit_log.ts";
import { withRoles } from "@/lib/app/with_roles.ts";

export { auditActorsDocs as docs } from "@/lib/audit/api_docs.ts";

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
