import { EVERY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { cancelReasonCounts } from "@/lib/donors/donor_view.ts";

export { cancelReasonsDocs as docs } from "@/lib/donors/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: EVERY_ROLE } satisfies RouteRoles;

/** `GET /api/donor/cancel-reasons` → the count per cancel reason (approved admins). */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    return Response.json(await cancelReasonCounts(ctx.state.services.store), {
      headers: { "cache-control": "no-store" },
    });
  },
});
