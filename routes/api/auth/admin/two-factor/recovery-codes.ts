import { accountsContext } from "@/lib/staff/accounts.ts";
import { EVERY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { replaceRecoveryCodes } from "@/lib/staff/two_factor_manage.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { RecoveryCodesSchema, TwoFactorCodeSchema } from "@/lib/staff/two_factor_schemas.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Replace my recovery codes",
    description: "With a current code from the authenticator app (not a recovery code): answers 10 new " +
      "recovery codes, this once; the old ones stop working. The code is spent. Audited " +
      "(`two-factor-recovery-codes`). Wrong codes count toward the login throttle.",
    tags: ["two-factor"],
    auth: "bearer",
    body: TwoFactorCodeSchema,
    responses: {
      200: { description: "The new recovery codes", schema: RecoveryCodesSchema },
      400: { description: "Not the current code from the app (or one already used)" },
      409: { description: "Two-factor sign-in is not set up for this account" },
      403: { description: "The account is waiting for approval" },
      429: { description: "Too many wrong codes and passwords: try again later" },
    },
  },
};

/** Who may call it: every approved admin, for themselves. */
export const roles = { POST: EVERY_ROLE } satisfies RouteRoles;

/** `POST /api/auth/admin/two-factor/recovery-codes` `{ code }` → `{ recoveryCodes }`. */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    const { code } = await readJson(req, TwoFactorCodeSchema);
    const answer = await replaceRecoveryCodes(accountsContext(ctx.state.services), signedInActor(ctx), code);
    return Response.json(answer, { headers: { "cache-control": "no-store" } });
  },
});
