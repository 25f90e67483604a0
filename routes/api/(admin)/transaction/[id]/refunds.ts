import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readId } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { refundsOf } from "@/lib/refunds/refund_view.ts";
import { RefundListSchema } from "@/lib/refunds/schemas.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "A gift's refunds",
    description: "Every refund of the gift, oldest first (failed ones included), with what it paid, " +
      "how much of it is refunded or waiting for the provider, and the card a new refund goes back to: " +
      "the one that paid, by its last four digits (or why it cannot be refunded here).",
    tags: ["transactions"],
    auth: "bearer",
    responses: {
      200: { description: "The refunds", schema: RefundListSchema },
      403: { description: "The caller's role may not see refunds (viewers)" },
      404: { description: "No such transaction" },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: FINANCE } satisfies RouteRoles;

/** `GET /api/transaction/{id}/refunds` → the gift's refunds and totals. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const id = readId(ctx.params.id, "transaction");
    const { services } = ctx.state;
    const provider = services.providerFor(services.config.publicUrl ?? ctx.url.origin);
    return Response.json(await refundsOf(services.store, provider, signedInAdmin(ctx.state), id));
  },
});
