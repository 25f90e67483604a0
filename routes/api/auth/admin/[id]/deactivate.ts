import { accountsContext } from "@/lib/staff/accounts.ts";
import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { deactivate } from "@/lib/staff/staff.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readId } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { AdminSchema } from "@/lib/staff/schemas.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Deactivate another admin",
    description: "Audited. Every session of the account ends at once: its access and refresh tokens are " +
      "refused from its next request on. The last active owner cannot be deactivated.",
    tags: ["admins"],
    auth: "bearer",
    responses: {
      200: { description: "The admin, deactivated", schema: AdminSchema },
      403: { description: "The caller is not an owner" },
      404: { description: "No admin has this id" },
      409: { description: "The admin is not active, is the caller, or is the last owner" },
    },
  },
};

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
