import { accountsContext } from "@/lib/staff/accounts.ts";
import { ANY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { confirmEnrolment } from "@/lib/staff/two_factor.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readJson } from "@/lib/http/validation.ts";
import { TwoFactorCodeSchema } from "@/lib/staff/two_factor_schemas.ts";

export { twoFactorConfirmDocs as docs } from "@/lib/staff/api_docs.ts";

/** Who may call it: every approved admin, for themselves. */
export const roles = { POST: ANY_ROLE } satisfies RouteRoles;

/** `POST /api/auth/admin/two-factor/confirm` `{ code }` → `{ recoveryCodes }`. */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    const { code } = await readJson(req, TwoFactorCodeSchema);
    const actor = {
      admin: signedInAdmin(ctx.state),
      address: clientAddress(ctx.hono, ctx.state.services.config.trustProxy),
    };
    const answer = await confirmEnrolment(accountsContext(ctx.state.services), actor, code);
    return Response.json(answer, { headers: { "cache-control": "no-store" } });
  },
});
