/**
 * The refunds' API operations as the OpenAPI document describes them: one export per route, which the route
 * re-exports as its `docs` (`lib/app/openapi.ts` builds the document from them).
 *
 * @module
 */
import {
  RefundAnswerSchema,
  RefundListSchema,
  RefundOutcomeSchema,
  RefundRequestSchema,
  RefundSchema,
} from "./schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

/** `POST /api/transaction/{id}/refund`. */
export const refundGiftDocs: RouteDocs = {
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

/** `POST /api/transaction/{id}/refund-outcome`. */
export const refundOutcomeDocs: RouteDocs = {
  POST: {
    summary: "Record what the provider shows for a pending refund",
    description:
      "For a refund still pending 15 minutes after it was asked (its provider's answer was lost, " +
      "and the provider cannot be asked: Pelecard): what its back office shows. `succeeded` records it as " +
      "refunded and emails the donor the credit receipt. `failed` frees its amount, so it takes two people: " +
      "the first `failed` is recorded as a report (202; the refund stays pending, its amount reserved), and " +
      "an owner other than the reporter confirms it with the same call (200). Once: a refund already " +
      "answered (by a person or by the reconciliation) is refused. Audited (`refund`), both steps.",
    tags: ["transactions"],
    auth: "bearer",
    body: RefundOutcomeSchema,
    responses: {
      200: { description: "The refund as recorded", schema: RefundSchema },
      202: {
        description:
          "`failed` reported: the refund stays pending until an owner, another person, confirms it",
        schema: RefundSchema,
      },
      400: { description: "The body is invalid" },
      403: { description: "The caller's role may not refund (viewers)" },
      404: { description: "No such transaction, or no such refund on it" },
      409: {
        description: "The refund is no longer pending, younger than 15 minutes, or its reported failure " +
          "awaits an owner other than the caller and its reporter",
      },
    },
  },
};

/** `GET /api/transaction/{id}/refunds`. */
export const giftRefundsDocs: RouteDocs = {
  GET: {
    summary: "A gift's refunds",
    description: "Every refund of the gift, oldest first (failed ones included), with what it paid, " +
      "how much of it is refunded or waiting for the provider, and the card a new refund goes back to: " +
      "the one that paid, by its last four digits (or why it cannot be refunded here).",
    tags: ["transactions"],
    auth: "bearer",
    responses: {
      200: { description: "The refunds", schema: RefundListSchema },
      403: { description: "The caller's role may not see refunds (viewers)" },
      404: { description: "No such transaction" },
    },
  },
};
