import { EVERY_ROLE, type RouteRoles, seesPersonalData } from "@/lib/staff/roles.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { ErrorListQuerySchema } from "@/lib/reports/transaction_schemas.ts";
import { listErrors, museumDays, searchScopeOf, viewerItem } from "@/lib/reports/transactions.ts";

export { errorTransactionsDocs as docs } from "@/lib/reports/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: EVERY_ROLE } satisfies RouteRoles;

/** `GET /api/transaction/get-all-error-transactions?page&limit&isMonthly&searchString&from&to&lang`. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const personal = seesPersonalData(signedInAdmin(ctx.state).role);
    const query = readQuery(ctx.url, ErrorListQuerySchema);
    const { store, config } = ctx.state.services;
    const page = await listErrors(store, {
      ...query,
      searchScope: searchScopeOf(personal),
      range: museumDays(query, config.museumTimeZone),
    });
    if (personal) return Response.json(page);
    return Response.json({ ...page, data: page.data.map(viewerItem) });
  },
});
