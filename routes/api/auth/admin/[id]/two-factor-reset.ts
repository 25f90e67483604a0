import { accountsContext } from "@/lib/staff/accounts.ts";
import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { resetTwoFactor } from "@/lib/staff/two_factor.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readId } from "@/lib/http/validation.ts";

export { twoFactorResetDocs as docs } from "@/lib/staff/api_docs.ts";

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
