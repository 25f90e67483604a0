import { accountsContext } from "@/lib/staff/accounts.ts";
import { ANY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { replaceRecoveryCodes } from "@/lib/staff/two_factor_manage.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readJson } from "@/lib/http/validation.ts";
import { TwoFactorCodeSchema } from "@/lib/staff/two_factor_schemas.ts";

export { recoveryCodesDocs as docs } from "@/lib/staff/api_docs.ts";

/** Who may call it: every approved admin, for themselves. */
export const roles = { POST: ANY_ROLE } satisfies RouteRoles;

/** `POST /api/auth/admin/two-factor/recovery-codes` `{ code }` → `{ recoveryCodes }`. */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    const { code } = await readJson(req, TwoFactorCodeSchema);
    const answer = await replaceRecoveryCodes(accountsContext(ctx.state.services), signedInActor(ctx), code);
    return Response.json(answer, { headers: { "cache-control": "no-store" } });
  },
});
