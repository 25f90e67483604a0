import type { Handlers } from "@/lib/framework/mod.ts";
import { readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/openapi.ts";
import { ErrorListQuerySchema, ErrorTransactionSchema, listResponse } from "@/lib/schemas.ts";
import type { AppState } from "@/lib/state.ts";
import { listErrors } from "@/lib/transactions.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "Failed transactions, newest first",
    description: "`isMonthly=true` keeps failed monthly payments (first gifts and monthly charges), " +
      "`isMonthly=false` one-time ones. `searchString` matches the donor's email, first or last name, " +
      "case-insensitively, anywhere.",
    tags: ["transactions"],
    auth: "bearer",
    query: ErrorListQuerySchema,
    responses: {
      200: { description: "One page", schema: listResponse(ErrorTransactionSchema, "ErrorTransactionList") },
      403: { description: "The admin is not approved yet" },
    },
  },
};

/** `GET /api/transaction/get-all-error-transactions?page&limit&isMonthly&searchString`. */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const { services } = ctx.state;
    return Response.json(await listErrors(services.store, readQuery(ctx.url, ErrorListQuerySchema)));
  },
};
