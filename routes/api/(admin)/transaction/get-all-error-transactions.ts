import { EVERY_ROLE, type RouteRoles, seesPersonalData } from "@/lib/staff/roles.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/app/openapi.ts";
import {
  ErrorListQuerySchema,
  ErrorTransactionSchema,
  listResponse,
} from "@/lib/reports/transaction_schemas.ts";
import { listErrors, museumDays, searchScopeOf, viewerItem } from "@/lib/reports/transactions.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "Failed transactions, newest first",
    description: "`isMonthly=true` keeps failed monthly payments (first gifts and monthly charges), " +
      "`isMonthly=false` one-time ones. `searchString` matches the donor's email, first or last name, " +
      "case-insensitively, anywhere (a viewer's, the first or last name only). Each item has the " +
      "error catalogue's text for its code in `lang` (`statusText`) beside the provider's own message. " +
      "`from` and `to` keep the failures of those museum days (the overview's links).",
    tags: ["transactions"],
    auth: "bearer",
    query: ErrorListQuerySchema,
    responses: {
      200: { description: "One page", schema: listResponse(ErrorTransactionSchema, "ErrorTransactionList") },
      403: { description: "The admin is not approved yet" },
    },
  },
};

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
