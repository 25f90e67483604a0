import { accountsContext } from "@/lib/staff/accounts.ts";
import { EVERY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { beginEnrolment } from "@/lib/staff/two_factor.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { EnrolmentSchema } from "@/lib/staff/two_factor_schemas.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Start setting up two-factor sign-in",
    description: "A new TOTP secret (as a QR code, an otpauth URI and text) for an authenticator app; " +
      "calling it again replaces one not yet confirmed. Confirm with a first code at `two-factor/confirm`.",
    tags: ["two-factor"],
    auth: "bearer",
    responses: {
      200: { description: "The secret to add to the app", schema: EnrolmentSchema },
      409: { description: "Two-factor is already set up (an owner resets it)" },
      403: { description: "The account is waiting for approval" },
    },
  },
};

/** Who may call it: every approved admin, for themselves. */
export const roles = { POST: EVERY_ROLE } satisfies RouteRoles;

/** `POST /api/auth/admin/two-factor/enrol` → `{ secret, otpauthUri, qrSvg }`. */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    await req.body?.cancel();
    const enrolment = await beginEnrolment(
      accountsContext(ctx.state.services),
      signedInAdmin(ctx.state),
      // The account's name in the app: the museum's site, as the admin reached it.
      ctx.url.host,
    );
    return Response.json(enrolment, { headers: { "cache-control": "no-store" } });
  },
});
