import { accountsContext } from "@/lib/staff/accounts.ts";
import { OWNERS, type RouteRoles } from "@/lib/staff/roles.ts";
import { setTwoFactorRequired } from "@/lib/staff/two_factor.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { TwoFactorRequiredSchema } from "@/lib/staff/two_factor_schemas.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Require two-factor sign-in for everyone (or stop)",
    description: "Owners only; audited (`two-factor-required`) when it changes. Takes effect at every " +
      "account's next request: one without two-factor can then only set it up.",
    tags: ["two-factor"],
    auth: "bearer",
    body: TwoFactorRequiredSchema,
    responses: {
      200: { description: "The setting now", schema: TwoFactorRequiredSchema },
      403: { description: "The caller is not an owner" },
    },
  },
};

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
