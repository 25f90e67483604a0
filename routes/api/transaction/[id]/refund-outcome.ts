import { FINANCE, type RouteRoles } from "@/lib/auth/roles.ts";
import { signedInActor, withRoles } from "@/lib/http/admin_auth.ts";
import { readId, readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/openapi.ts";
import { recordRefundOutcomeByStaff } from "@/lib/payments/refund_outcome.ts";
import { publicRefund } from "@/lib/payments/refunds.ts";
import { RefundOutcomeSchema, RefundSchema } from "@/lib/refund_schemas.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Record what the provider shows for a pending refund",
    description:
      "For a refund still pending 15 minutes after it was asked (its provider's answer was lost, " +
      "and the provider cannot be asked: Pelecard): what its back office shows. `succeeded` records it as " +
      "refunded and emails the donor the credit receipt; `failed` frees its amount. Once: a refund already " +
      "answered (by a person or by the reconciliation) is refused. Audited (`refund`).",
    tags: ["transactions"],
    auth: "bearer",
    body: RefundOutcomeSchema,
    responses: {
      200: { description: "The refund as recorded", schema: RefundSchema },
      400: { description: "The body is invalid" },
      403: { description: "The caller's role may not refund (viewers)" },
      404: { description: "No such transaction, or no such refund on it" },
      409: { description: "The refund is no longer pending, or younger than 15 minutes" },
    },
  },
};

/** Who may call it (`lib/auth/roles.ts`). */
export const roles = { POST: FINANCE } satisfies RouteRoles;

/** `POST /api/transaction/{id}/refund-outcome` `{ refundId, outcome, providerRef? }` → the refund. */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    const transactionId = readId(ctx.params.id, "transaction");
    const body = await readJson(req, RefundOutcomeSchema);
    const refund = await recordRefundOutcomeByStaff(ctx.state.services.store, signedInActor(ctx), {
      transactionId,
      ...body,
    });
    return Response.json(publicRefund(refund));
  },
});
