/**
 * The back office's receipt calls (`/api/transaction/{id}/receipt`, `…/resend-receipt`).
 *
 * @module
 */
import { z } from "zod";
import { langParam } from "@/lib/core/schema_fields.ts";

/** `GET /api/transaction/{id}/receipt` query. */
export const ReceiptPdfQuerySchema = z.object({
  lang: langParam.optional().default("en").describe("Language of the receipt's PDF"),
});

/** `POST /api/transaction/{id}/resend-receipt` answer. */
export const ResendReceiptSchema = z.object({
  key: z.string().describe("The resent message's outbox key, `receipt:{id}:resend:{n}`"),
  repeated: z.boolean().describe(
    "True when a resend asked for within the last 10 seconds answered instead: no second email",
  ),
  receiptNumber: z.string().nullable().describe("The receipt attached, or null until it is issued"),
}).meta({ id: "ResendReceipt" });
