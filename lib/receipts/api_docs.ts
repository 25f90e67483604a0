/**
 * The receipts' API operations as the OpenAPI document describes them: one export per route, which the route
 * re-exports as its `docs` (`lib/app/openapi.ts` builds the document from them).
 *
 * @module
 */
import { ReceiptPdfQuerySchema, ResendReceiptSchema } from "./schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

/** `GET /api/transaction/{id}/receipt`. */
export const receiptPdfDocs: RouteDocs = {
  GET: {
    summary: "A transaction's receipt (PDF)",
    description: "The legal receipt of a successful gift as a PDF attachment, in `lang`: the receipt " +
      "already issued (the number the donor's email carries), or a new one, issued now with the next " +
      "number of its series, when the receipt email has not been rendered yet.",
    tags: ["transactions"],
    auth: "bearer",
    query: ReceiptPdfQuerySchema,
    responses: {
      200: { description: "The PDF (`application/pdf`, as an attachment)" },
      403: { description: "The admin is not approved yet" },
      404: { description: "No such transaction" },
      409: { description: "The transaction is not a successful gift" },
      503: { description: "Receipts are not configured (RECEIPT_LEGAL_NAME)" },
    },
  },
};

/** `POST /api/transaction/{id}/resend-receipt`. */
export const resendReceiptDocs: RouteDocs = {
  POST: {
    summary: "Resend a receipt email",
    description: "Queues the receipt email of a successful gift again, to the donor's address on file, " +
      "in the language of the first one, with the same receipt (same number) attached. A second request " +
      "within 10 seconds of a resend (a double click) answers that resend with `repeated: true` and " +
      "sends nothing more. At most 50 resends per receipt. Each resend queued is audited (`receipt-resent`).",
    tags: ["transactions"],
    auth: "bearer",
    responses: {
      202: { description: "Queued for sending", schema: ResendReceiptSchema },
      403: { description: "The admin is not approved yet" },
      404: { description: "No such transaction" },
      409: { description: "The transaction is not a successful gift, or was resent 50 times" },
    },
  },
};
