import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readId, readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { recordRefundOutcomeByStaff } from "@/lib/refunds/refund_outcome.ts";
import { publicRefund } from "@/lib/refunds/refund_view.ts";
import { RefundOutcomeSchema, RefundSchema } from "@/lib/refunds/schemas.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Record what the provider shows for a pending refund",
    description:
      "For a refund still pending 15 minutes after it was asked (its provider's answer was lost, " +
      "and the provider cannot be asked: Pelecard): what its back office shows. `succeeded` records it as " +
      "refunded and emails the donor the credit receipt. `failed` frees its amount, so it takes two people: " +
      "the first `failed` is recorded as a report (202; the refund stays pending, its amount reserved), and " +
      "an owner other than the reporter confirms it with the same call (200). Once: a refund already " +
      "answered (by a person or by the reconciliation) is refused. Audited (`refund`), both steps.",
    tags: ["transactions"],
    auth: "bearer",
    body: RefundOutcomeSchema,
    responses: {
      200: { description: "The refund as recorded", schema: RefundSchema },
      202: {
        description:
          "`failed` reported: the refund stays pending until an owner, another person, confirms it",
        schema: RefundSchema,
      },
      400: { description: "The body is invalid" },
      403: { description: "The caller's role may not refund (viewers)" },
      404: { description: "No such transaction, or no such refund on it" },
      409: {
        description: "The refund is no longer pending, younger than 15 minutes, or its reported failure " +
          "awaits an owner other than the caller and its reporter",
      },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { POST: FINANCE } satisfies RouteRoles;

/**
 * `POST /api/transaction/{id}/refund-outcome` `{ refundId, outcome, providerRef? }` → the refund (202 while
 * a reported failure awaits an owner's confirmation).
 */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    const transactionId = readId(ctx.params.id, "transaction");
    const body = await readJson(req, RefundOutcomeSchema);
    const actor = signedInActor(ctx);
    const { refund, settled } = await recordRefundOutcomeByStaff(ctx.state.services.store, actor, {
      transactionId,
      ...body,
    });
    return Response.json(publicRefund(refund, actor.admin), { status: settled ? 200 : 202 });
  },
});
