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
import { AdminRoleSchema } from "@/lib/staff/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

/** Who may decide: owners (`lib/staff/roles.ts`). */
export const roles = { POST: OWNERS } satisfies RouteRoles;

/** The handler of `POST /api/auth/admin/{id}/approve` or `…/reject` (their docs: `lib/staff/api_docs.ts`). */
export function decisionHandler(status: "approved" | "rejected"): Handlers<unknown, AppState> {
  return withRoles(roles, {
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
  });
}
