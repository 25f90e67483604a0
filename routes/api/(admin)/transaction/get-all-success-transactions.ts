import { EVERY_ROLE, type RouteRoles, seesPersonalData } from "@/lib/staff/roles.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/app/openapi.ts";
import { withReceiptRefs } from "@/lib/receipts/back_office.ts";
import {
  listResponse,
  SuccessListQuerySchema,
  SuccessTransactionSchema,
} from "@/lib/reports/transaction_schemas.ts";
import { listSuccess, museumDays, searchScopeOf, viewerItem } from "@/lib/reports/transactions.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "Successful transactions, newest first",
    description:
      "`searchString` matches the donor's email, first or last name, case-insensitively, anywhere " +
      "(a viewer's, the first or last name only). " +
      "Each item carries its receipt's number and admin download path (`receipt`). `from` and `to` " +
      "keep the gifts of those museum days (the overview's links); `refund=pending` the gifts with a " +
      "refund waiting for the provider.",
    tags: ["transactions"],
    auth: "bearer",
    query: SuccessListQuerySchema,
    responses: {
      200: {
        description: "One page",
        schema: listResponse(SuccessTransactionSchema, "SuccessTransactionList"),
      },
      403: { description: "The admin is not approved yet" },
    },
  },
};

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
