/**
 * What `approve.ts` and `reject.ts` share: an owner (signed in by `../_middleware.ts`) decides on a
 * pending admin; an approval may name the role (`viewer` when it does not). (A file starting with
 * `_` beside routes is a helper, not a route.)
 */
import { accountsContext, decide } from "@/lib/staff/accounts.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readId, readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { AdminRoleSchema, AdminSchema } from "@/lib/staff/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

/** Who may decide: owners (`lib/staff/roles.ts`). */
export const roles = { POST: OWNERS } satisfies RouteRoles;

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
        ...(status === "approved"
          ? {
            description:
              "An optional JSON body `{ role }` names the role; without one the admin is a viewer.",
          }
          : {}),
        responses: {
          200: { description: `The admin, now ${status}`, schema: AdminSchema },
          403: { description: "The caller is not an owner" },
          409: {
            description:
              "The admin is not pending (also when another decision landed first), or is the caller",
          },
        },
      },
    },
    handler: withRoles(roles, {
      async POST(req, ctx) {
        const actor = signedInAdmin(ctx.state);
        const id = readId(ctx.params.id, "admin");
        // The role is optional: a body only when one is sent (an approval without one makes a viewer).
        const hasBody = status === "approved" && req.headers.get("content-type") !== null;
        const role = hasBody ? (await readJson(req, AdminRoleSchema)).role : undefined;
        if (!hasBody) await req.body?.cancel();
        const admin = await decide(
          accountsContext(ctx.state.services),
          actor,
          id,
          status,
          clientAddress(ctx.hono, ctx.state.services.config.trustProxy),
          role,
        );
        ctx.state.log.info(`admin ${status}`, { adminId: admin.id, by: actor.id });
        return Response.json(admin);
      },
    }),
  };
}
