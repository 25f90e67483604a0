import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readId, readJson } from "@/lib/http/validation.ts";
import { recordRefundOutcomeByStaff } from "@/lib/refunds/refund_outcome.ts";
import { publicRefund } from "@/lib/refunds/refund_view.ts";
import { RefundOutcomeSchema } from "@/lib/refunds/schemas.ts";

export { refundOutcomeDocs as docs } from "@/lib/refunds/api_docs.ts";

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
