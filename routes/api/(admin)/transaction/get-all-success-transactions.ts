import { EVERY_ROLE, type RouteRoles, seesPersonalData } from "@/lib/staff/roles.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { withReceiptRefs } from "@/lib/receipts/back_office.ts";
import { SuccessListQuerySchema } from "@/lib/reports/transaction_schemas.ts";
import { listSuccess, museumDays, searchScopeOf, viewerItem } from "@/lib/reports/transactions.ts";

export { successTransactionsDocs as docs } from "@/lib/reports/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: EVERY_ROLE } satisfies RouteRoles;

/** `GET /api/transaction/get-all-success-transactions?page&limit&isMonthly&searchString&from&to&refund`. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const personal = seesPersonalData(signedInAdmin(ctx.state).role);
    const query = readQuery(ctx.url, SuccessListQuerySchema);
    const page = await listSuccess(store, {
      ...query,
      searchScope: searchScopeOf(personal),
      range: museumDays(query, config.museumTimeZone),
      refundPending: query.refund === "pending",
    });
    if (!personal) {
      return Response.json({ ...page, data: page.data.map(viewerItem) });
    }
    return Response.json({ ...page, data: await withReceiptRefs(store, config.receipts, page.data) });
  },
});
