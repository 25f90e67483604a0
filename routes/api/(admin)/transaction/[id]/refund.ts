import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readId, readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { refundGift } from "@/lib/refunds/refunds.ts";
import { publicRefund } from "@/lib/refunds/refund_view.ts";
import { RefundAnswerSchema, RefundRequestSchema } from "@/lib/refunds/schemas.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Refund a gift, in full or in part",
    description: "Gives `amount` (minor units) back through the provider the gift was paid with, with " +
      "a reason, to the card that paid it and no other (through the token it was charged with). Recorded once per `key`: the same key again (a double click, a " +
      "retry) answers the first refund with `repeated: true` and does nothing more. The gift's refunds " +
      "never exceed what it paid, also when two staff refund it at once. On success the donor gets an " +
      "email with a credit receipt; a monthly gift keeps running unless `cancelMonthly` is true. " +
      "Audited (`refund`), failures too.",
    tags: ["transactions"],
    auth: "bearer",
    body: RefundRequestSchema,
    responses: {
      200: { description: "The key was used before: its refund, as stored", schema: RefundAnswerSchema },
      201: { description: "Refunded", schema: RefundAnswerSchema },
      400: { description: "The body is invalid" },
      403: { description: "The caller's role may not refund (viewers)" },
      404: { description: "No such transaction" },
      409: {
        description: "Not a successful gift of the current provider, the card that paid it not known here " +
          "(refund it in the provider's back office), larger than what remains to refund, or refused by " +
          "the provider (nothing refunded)",
      },
      503: {
        description: "The provider did not confirm the refund: it stays pending, its amount reserved, " +
          "until the provider's answer is known (the reconciliation asks it every 15 minutes)",
      },
    },
  },
};

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
