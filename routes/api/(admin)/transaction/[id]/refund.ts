import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readId, readJson } from "@/lib/http/validation.ts";
import { refundGift } from "@/lib/refunds/refunds.ts";
import { publicRefund } from "@/lib/refunds/refund_view.ts";
import { RefundRequestSchema } from "@/lib/refunds/schemas.ts";

export { refundGiftDocs as docs } from "@/lib/refunds/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { POST: FINANCE } satisfies RouteRoles;

/** `POST /api/transaction/{id}/refund` → 201 the refund (200 when the key was used before). */
export const handler = withRoles(roles, {
  async POST(req, ctx) {
    const transactionId = readId(ctx.params.id, "transaction");
    const body = await readJson(req, RefundRequestSchema);
    const { services } = ctx.state;
    const actor = {
      admin: signedInAdmin(ctx.state),
      address: clientAddress(ctx.hono, services.config.trustProxy),
    };
    const provider = services.providerFor(services.config.publicUrl ?? ctx.url.origin);
    const answer = await refundGift({ store: services.store, provider }, actor, { transactionId, ...body });
    ctx.state.log.info("refund", {
      transactionId,
      refundId: answer.refund.id,
      state: answer.refund.state,
      repeated: answer.repeated,
      by: actor.admin.id,
    });
    return Response.json(
      { refund: publicRefund(answer.refund), repeated: answer.repeated },
      { status: answer.repeated ? 200 : 201 },
    );
  },
});
