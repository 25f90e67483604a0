import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { profile } from "@/lib/staff/accounts.ts";

export { pendingAdminsDocs as docs } from "@/lib/staff/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: OWNERS } satisfies RouteRoles;

/** `GET /api/auth/admin/pending` → pending admins (approved admins only: `_middleware.ts`). */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const pending = await ctx.state.services.store.admins.listByStatus("pending");
    return Response.json(pending.map(profile));
  },
});
