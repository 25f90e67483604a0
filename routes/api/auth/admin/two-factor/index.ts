import { accountsContext } from "@/lib/staff/accounts.ts";
import { ANY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { twoFactorStatus } from "@/lib/staff/two_factor.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";

export { twoFactorStatusDocs as docs } from "@/lib/staff/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`): every approved admin, about themselves. */
export const roles = { GET: ANY_ROLE } satisfies RouteRoles;

/** `GET /api/auth/admin/two-factor` → `{ enrolled, required, enrolmentDue, recoveryCodesLeft }`. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    return Response.json(
      await twoFactorStatus(accountsContext(ctx.state.services), signedInAdmin(ctx.state)),
    );
  },
});
