import type { Handlers } from "@/lib/framework/mod.ts";
import { readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/openapi.ts";
import { listResponse, SuccessListQuerySchema, SuccessTransactionSchema } from "@/lib/schemas.ts";
import type { AppState } from "@/lib/state.ts";
import { listSuccess } from "@/lib/transactions.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "Successful transactions, newest first",
    description:
      "`searchString` matches the donor's email, first or last name, case-insensitively, anywhere.",
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

/** `GET /api/transaction/get-all-success-transactions?page&limit&isMonthly&searchString`. */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const { services } = ctx.state;
    return Response.json(await listSuccess(services.store, readQuery(ctx.url, SuccessListQuerySchema)));
  },
};
