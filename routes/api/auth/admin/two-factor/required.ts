import { accountsContext } from "@/lib/staff/accounts.ts";
import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { setTwoFactorRequired } from "@/lib/staff/two_factor.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readJson } from "@/lib/http/validation.ts";
import { TwoFactorRequiredSchema } from "@/lib/staff/two_factor_schemas.ts";

export { twoFactorRequiredDocs as docs } from "@/lib/staff/api_docs.ts";

/** Who may call it: owners. */
export const roles = { POST: OWNERS } satisfies RouteRoles;

/** `POST /api/auth/admin/two-factor/required` `{ required }` → `{ required }`. */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    const { required } = await readJson(req, TwoFactorRequiredSchema);
    const actor = {
      admin: signedInAdmin(ctx.state),
      address: clientAddress(ctx.hono, ctx.state.services.config.trustProxy),
    };
    return Response.json(await setTwoFactorRequired(accountsContext(ctx.state.services), actor, required));
  },
});
