import { profile } from "@/lib/auth/accounts.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import type { RouteDocs } from "@/lib/openapi.ts";
import { AdminSchema } from "@/lib/schemas.ts";
import type { AppState } from "@/lib/state.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "The signed-in admin",
    description: "Answers for pending admins too, so the back office can show them their status.",
    tags: ["admins"],
    auth: "bearer",
    responses: { 200: { description: "The profile", schema: AdminSchema } },
  },
};

/** `GET /api/auth/admin/me` → the current admin's profile (pending admins too: `_middleware.ts`). */
export const handler: Handlers<unknown, AppState> = {
  GET(_req, ctx) {
    return Response.json(profile(signedInAdmin(ctx.state)));
  },
};
