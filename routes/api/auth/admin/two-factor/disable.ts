import { accountsContext } from "@/lib/staff/accounts.ts";
import { ANY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { turnOffTwoFactor } from "@/lib/staff/two_factor_manage.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readJson } from "@/lib/http/validation.ts";
import { TwoFactorCodeSchema } from "@/lib/staff/two_factor_schemas.ts";

export { twoFactorDisableDocs as docs } from "@/lib/staff/api_docs.ts";

/** Who may call it: every approved admin, for themselves. */
export const roles = { POST: ANY_ROLE } satisfies RouteRoles;

/** `POST /api/auth/admin/two-factor/disable` `{ code }` → 204. */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    const { code } = await readJson(req, TwoFactorCodeSchema);
    await turnOffTwoFactor(accountsContext(ctx.state.services), signedInActor(ctx), code);
    return new Response(null, { status: 204 });
  },
});
