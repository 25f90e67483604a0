import { accountsContext } from "@/lib/staff/accounts.ts";
import { EVERY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { turnOffTwoFactor } from "@/lib/staff/two_factor_manage.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { TwoFactorCodeSchema } from "@/lib/staff/two_factor_schemas.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Turn off my two-factor sign-in",
    description: "With a current code from the authenticator app: the password alone signs in again. " +
      "Refused while an owner requires two-factor for everyone. Audited (`two-factor-disabled`). Wrong " +
      "codes count toward the login throttle.",
    tags: ["two-factor"],
    auth: "bearer",
    body: TwoFactorCodeSchema,
    responses: {
      204: { description: "Two-factor sign-in is off for this account" },
      400: { description: "Not the current code from the app (or one already used)" },
      409: { description: "Two-factor is required for everyone, or not set up for this account" },
      403: { description: "The account is waiting for approval" },
      429: { description: "Too many wrong codes and passwords: try again later" },
    },
  },
};

/** Who may call it: every approved admin, for themselves. */
export const roles = { POST: EVERY_ROLE } satisfies RouteRoles;

/** `POST /api/auth/admin/two-factor/disable` `{ code }` → 204. */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    const { code } = await readJson(req, TwoFactorCodeSchema);
    await turnOffTwoFactor(accountsContext(ctx.state.services), signedInActor(ctx), code);
    return new Response(null, { status: 204 });
  },
});
