import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { readId } from "@/lib/http/validation.ts";
import { resendReceipt } from "@/lib/receipts/back_office.ts";

export { resendReceiptDocs as docs } from "@/lib/receipts/api_docs.ts";

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
