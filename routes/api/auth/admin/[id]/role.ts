import { accountsContext } from "@/lib/staff/accounts.ts";
import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { changeRole } from "@/lib/staff/staff.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readId, readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { AdminRoleSchema, AdminSchema } from "@/lib/staff/schemas.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Change another admin's role",
    description:
      "Audited. The museum always keeps at least one active owner; an owner cannot change their own role.",
    tags: ["admins"],
    auth: "bearer",
    body: AdminRoleSchema,
    responses: {
      200: { description: "The admin with the new role", schema: AdminSchema },
      403: { description: "The caller is not an owner" },
      404: { description: "No admin has this id" },
      409: { description: "The admin is not active, is the caller, or is the last owner" },
    },
  },
};

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
