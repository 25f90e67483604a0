import { accountsContext } from "@/lib/staff/accounts.ts";
import { EVERY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { confirmEnrolment } from "@/lib/staff/two_factor.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { RecoveryCodesSchema, TwoFactorCodeSchema } from "@/lib/staff/two_factor_schemas.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Confirm two-factor sign-in with a first code",
    description: "Audited (`two-factor-enrolled`). Answers 10 recovery codes, this once: only their keyed " +
      "hashes are kept. From now on, signing in asks for a code after the password.",
    tags: ["two-factor"],
    auth: "bearer",
    body: TwoFactorCodeSchema,
    responses: {
      200: { description: "The recovery codes", schema: RecoveryCodesSchema },
      400: { description: "The code does not match the secret being set up" },
      409: { description: "No set-up in progress, or two-factor is already set up" },
      403: { description: "The account is waiting for approval" },
    },
  },
};

/** Who may call it: every approved admin, for themselves. */
export const roles = { POST: EVERY_ROLE } satisfies RouteRoles;

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
