import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readId } from "@/lib/http/validation.ts";
import { refundsOf } from "@/lib/refunds/refund_view.ts";

export { giftRefundsDocs as docs } from "@/lib/refunds/api_docs.ts";

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
