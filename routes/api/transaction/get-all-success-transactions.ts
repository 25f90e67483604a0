import type { Handlers } from "@/lib/framework/mod.ts";
import { readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/openapi.ts";
import { withReceiptRefs } from "@/lib/receipts/back_office.ts";
import { listResponse, SuccessListQuerySchema, SuccessTransactionSchema } from "@/lib/schemas.ts";
import type { AppState } from "@/lib/state.ts";
import { listSuccess } from "@/lib/transactions.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "Successful transactions, newest first",
    description:
      "`searchString` matches the donor's email, first or last name, case-insensitively, anywhere. " +
      "Each item carries its receipt's number and admin download path (`receipt`).",
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
    const { store, config } = ctx.state.services;
    const page = await listSuccess(store, readQuery(ctx.url, SuccessListQuerySchema));
    return Response.json({ ...page, data: await withReceiptRefs(store, config.receipts, page.data) });
  },
};
