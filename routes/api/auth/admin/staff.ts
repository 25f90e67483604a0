import { z } from "zod";
import { accountsContext } from "@/lib/staff/accounts.ts";
import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { listStaff } from "@/lib/staff/staff.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { AdminSchema } from "@/lib/staff/schemas.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "The museum's staff: active and deactivated admins with their roles",
    tags: ["admins"],
    auth: "bearer",
    responses: {
      200: { description: "Active admins oldest first, then deactivated ones", schema: z.array(AdminSchema) },
      403: { description: "The caller is not an owner" },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: OWNERS } satisfies RouteRoles;

/** `GET /api/auth/admin/staff` → the staff an owner manages. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    return Response.json(await listStaff(accountsContext(ctx.state.services), signedInAdmin(ctx.state)));
  },
});
