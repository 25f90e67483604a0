import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { z } from "zod";
import { profile } from "@/lib/staff/accounts.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { AdminSchema } from "@/lib/staff/schemas.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "Admins waiting for approval",
    tags: ["admins"],
    auth: "bearer",
    responses: {
      200: { description: "Pending admins, oldest first", schema: z.array(AdminSchema) },
      403: { description: "The caller is not approved" },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: OWNERS } satisfies RouteRoles;

/** `GET /api/auth/admin/pending` → pending admins (approved admins only: `_middleware.ts`). */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const pending = await ctx.state.services.store.admins.listByStatus("pending");
    return Response.json(pending.map(profile));
  },
});
