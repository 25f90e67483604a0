import { accountsContext } from "@/lib/staff/accounts.ts";
import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { resetTwoFactor } from "@/lib/staff/two_factor.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readId } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Reset an admin's two-factor sign-in",
    description: "Owners only; audited (`two-factor-reset`). For a lost phone without recovery codes: the " +
      "admin signs in with the password alone, or sets two-factor up again at once when it is required.",
    tags: ["two-factor"],
    auth: "bearer",
    responses: {
      204: { description: "Reset" },
      403: { description: "The caller is not an owner" },
      404: { description: "No admin has this id" },
      409: { description: "The admin has no two-factor sign-in" },
    },
  },
};

/** Who may call it: owners. */
export const roles = { POST: OWNERS } satisfies RouteRoles;

/** `POST /api/auth/admin/{id}/two-factor-reset` → 204. */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    await req.body?.cancel();
    const id = readId(ctx.params.id, "admin");
    const actor = {
      admin: signedInAdmin(ctx.state),
      address: clientAddress(ctx.hono, ctx.state.services.config.trustProxy),
    };
    await resetTwoFactor(accountsContext(ctx.state.services), actor, id);
    return new Response(null, { status: 204 });
  },
});
