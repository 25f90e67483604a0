import { accountsContext } from "@/lib/staff/accounts.ts";
import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { listStaff } from "@/lib/staff/staff.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";

export { staffListDocs as docs } from "@/lib/staff/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: OWNERS } satisfies RouteRoles;

/** `GET /api/auth/admin/staff` → the staff an owner manages. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    return Response.json(await listStaff(accountsContext(ctx.state.services), signedInAdmin(ctx.state)));
  },
});
