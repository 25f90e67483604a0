import { EVERY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { CancelReasonsSchema } from "@/lib/donors/schemas.ts";
import { cancelReasonCounts } from "@/lib/donors/donor_view.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "Why donors cancelled their monthly gifts",
    description: "How many monthly gifts were cancelled with each reason the donor's cancel form " +
      "offers (every reason listed, in the form's order, 0 when none), and their total. Cancellations " +
      "without a reason are not counted here.",
    tags: ["donors"],
    auth: "bearer",
    responses: {
      200: { description: "The counts", schema: CancelReasonsSchema },
      403: { description: "The admin is not approved yet" },
    },
  },
};

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
