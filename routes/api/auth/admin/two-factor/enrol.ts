import { accountsContext } from "@/lib/staff/accounts.ts";
import { ANY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { beginEnrolment } from "@/lib/staff/two_factor.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";

export { twoFactorEnrolDocs as docs } from "@/lib/staff/api_docs.ts";

/** Who may call it: every approved admin, for themselves. */
export const roles = { POST: ANY_ROLE } satisfies RouteRoles;

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
