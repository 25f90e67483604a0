import { accountsContext, authenticate, decide } from "../../../../../lib/auth/accounts.ts";
import type { Handlers } from "../../../../../lib/framework/mod.ts";
import { readId } from "../../../../../lib/http/validation.ts";
import type { RouteDocs } from "../../../../../lib/openapi.ts";
import { AdminSchema } from "../../../../../lib/schemas.ts";
import type { AppState } from "../../../../../lib/state.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Approve a pending admin",
    tags: ["admins"],
    auth: "bearer",
    responses: {
      200: { description: "The admin, now approved", schema: AdminSchema },
      403: { description: "The caller is not approved" },
      409: { description: "The admin is not pending, or is the caller" },
    },
  },
};

/** `POST /api/auth/admin/{id}/approve` → the admin, approved (approved admins only). */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const accounts = accountsContext(ctx.state.services);
    const actor = await authenticate(accounts, req.headers.get("authorization"));
    const admin = await decide(accounts, actor, readId(ctx.params.id, "admin"), "approved");
    ctx.state.log.info("admin approved", { adminId: admin.id, by: actor.id });
    return Response.json(admin);
  },
};
