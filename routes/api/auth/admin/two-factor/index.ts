import { accountsContext } from "@/lib/staff/accounts.ts";
import { EVERY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { twoFactorStatus } from "@/lib/staff/two_factor.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { TwoFactorStatusSchema } from "@/lib/staff/two_factor_schemas.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "The signed-in admin's two-factor state",
    description:
      "Open while enrolment is due (two-factor required and not set up), like the enrolment calls.",
    tags: ["two-factor"],
    auth: "bearer",
    responses: {
      200: { description: "The state", schema: TwoFactorStatusSchema },
      403: { description: "The account is waiting for approval" },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`): every approved admin, about themselves. */
export const roles = { GET: EVERY_ROLE } satisfies RouteRoles;

/** `GET /api/auth/admin/two-factor` → `{ enrolled, required, enrolmentDue, recoveryCodesLeft }`. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    return Response.json(
      await twoFactorStatus(accountsContext(ctx.state.services), signedInAdmin(ctx.state)),
    );
  },
});
