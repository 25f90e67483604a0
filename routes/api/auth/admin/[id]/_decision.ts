/**
 * What `approve.ts` and `reject.ts` share: an approved admin (signed in by `../_middleware.ts`)
 * decides on a pending one. (A file starting with `_` beside routes is a helper, not a route.)
 */
import { accountsContext, decide } from "@/lib/auth/accounts.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readId } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/openapi.ts";
import { AdminSchema } from "@/lib/schemas.ts";
import type { AppState } from "@/lib/state.ts";

/** The docs and handler of `POST /api/auth/admin/{id}/approve` or `…/reject`. */
export function decisionRoute(status: "approved" | "rejected"): {
  docs: RouteDocs;
  handler: Handlers<unknown, AppState>;
} {
  const verb = status === "approved" ? "Approve" : "Reject";
  return {
    docs: {
      POST: {
        summary: `${verb} a pending admin`,
        tags: ["admins"],
        auth: "bearer",
        responses: {
          200: { description: `The admin, now ${status}`, schema: AdminSchema },
          403: { description: "The caller is not approved" },
          409: {
            description:
              "The admin is not pending (also when another decision landed first), or is the caller",
          },
        },
      },
    },
    handler: {
      async POST(_req, ctx) {
        const actor = signedInAdmin(ctx.state);
        const admin = await decide(
          accountsContext(ctx.state.services),
          actor,
          readId(ctx.params.id, "admin"),
          status,
          clientAddress(ctx.hono, ctx.state.services.config.trustProxy),
        );
        ctx.state.log.info(`admin ${status}`, { adminId: admin.id, by: actor.id });
        return Response.json(admin);
      },
    },
  };
}
