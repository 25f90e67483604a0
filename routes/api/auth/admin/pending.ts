import { z } from "zod";
import { profile } from "@/lib/auth/accounts.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import type { RouteDocs } from "@/lib/openapi.ts";
import { AdminSchema } from "@/lib/schemas.ts";
import type { AppState } from "@/lib/state.ts";

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

/** `GET /api/auth/admin/pending` → pending admins (approved admins only: `_middleware.ts`). */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const pending = await ctx.state.services.store.admins.listByStatus("pending");
    return Response.json(pending.map(profile));
  },
};
