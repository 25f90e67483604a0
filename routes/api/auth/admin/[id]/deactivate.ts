import { accountsContext } from "@/lib/staff/accounts.ts";
import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { deactivate } from "@/lib/staff/staff.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readId } from "@/lib/http/validation.ts";

export { deactivateAdminDocs as docs } from "@/lib/staff/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { POST: OWNERS } satisfies RouteRoles;

/** `POST /api/auth/admin/{id}/deactivate` → the admin, deactivated. */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    await req.body?.cancel();
    const actor = {
      admin: signedInAdmin(ctx.state),
      address: clientAddress(ctx.hono, ctx.state.services.config.trustProxy),
    };
    return Response.json(
      await deactivate(accountsContext(ctx.state.services), actor, readId(ctx.params.id, "admin")),
    );
  },
});
