import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { readId } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { resendReceipt } from "@/lib/receipts/back_office.ts";
import { ResendReceiptSchema } from "@/lib/receipts/schemas.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Resend a receipt email",
    description: "Queues the receipt email of a successful gift again, to the donor's address on file, " +
      "in the language of the first one, with the same receipt (same number) attached. A second request " +
      "within 10 seconds of a resend (a double click) answers that resend with `repeated: true` and " +
      "sends nothing more. At most 50 resends per receipt. Each resend queued is audited (`receipt-resent`).",
    tags: ["transactions"],
    auth: "bearer",
    responses: {
      202: { description: "Queued for sending", schema: ResendReceiptSchema },
      403: { description: "The admin is not approved yet" },
      404: { description: "No such transaction" },
      409: { description: "The transaction is not a successful gift, or was resent 50 times" },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { POST: FINANCE } satisfies RouteRoles;

/** `POST /api/transaction/{id}/resend-receipt` → 202, the receipt email queued again (approved admins). */
export const handler = withRoles(roles, {
  async POST(_req, ctx) {
    const actor = signedInActor(ctx);
    const id = readId(ctx.params.id, "transaction");
    const answer = await resendReceipt(ctx.state.services.store, id, new Date(), actor);
    ctx.state.log.info("receipt resend", {
      transactionId: id,
      by: actor.admin.id,
      repeated: answer.repeated,
    });
    return Response.json(answer, { status: 202 });
  },
});
