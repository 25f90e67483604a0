import { FINANCE, type RouteRoles } from "@/lib/auth/roles.ts";
import { withRoles } from "@/lib/http/admin_auth.ts";
import { readId } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/openapi.ts";
import { refundsOf } from "@/lib/payments/refunds.ts";
import { RefundListSchema } from "@/lib/refund_schemas.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "A gift's refunds",
    description: "Every refund of the gift, oldest first (failed ones included), with what it paid and " +
      "how much of it is refunded or waiting for the provider.",
    tags: ["transactions"],
    auth: "bearer",
    responses: {
      200: { description: "The refunds", schema: RefundListSchema },
      403: { description: "The caller's role may not see refunds (viewers)" },
      404: { description: "No such transaction" },
    },
  },
};

/** Who may call it (`lib/auth/roles.ts`). */
export const roles = { GET: FINANCE } satisfies RouteRoles;

/** `GET /api/transaction/{id}/refunds` → the gift's refunds and totals. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const id = readId(ctx.params.id, "transaction");
    return Response.json(await refundsOf(ctx.state.services.store, id));
  },
});
