import { accountsContext } from "@/lib/staff/accounts.ts";
import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { changeRole } from "@/lib/staff/staff.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readId, readJson } from "@/lib/http/validation.ts";
import { AdminRoleSchema } from "@/lib/staff/schemas.ts";

export { adminRoleDocs as docs } from "@/lib/staff/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { POST: OWNERS } satisfies RouteRoles;

/** `POST /api/auth/admin/{id}/role` `{ role }` → the admin, with its new role. */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    const id = readId(ctx.params.id, "admin");
    const { role } = await readJson(req, AdminRoleSchema);
    const actor = {
      admin: signedInAdmin(ctx.state),
      address: clientAddress(ctx.hono, ctx.state.services.config.trustProxy),
    };
    return Response.json(await changeRole(accountsContext(ctx.state.services), actor, id, role));
  },
});
