/**
 * The back office donor API's payloads (`GET /api/donor`, `GET /api/donor/cancel-reasons`), as zod
 * schemas: the query is validated with them, and the OpenAPI document describes both from them.
 * Kept beside `donor_view.ts`, which builds the answers.
 *
 * @module
 */
import { z } from "zod";
import { email } from "@/lib/app/schemas.ts";

const Currency = z.union([z.literal(1), z.literal(2)]).describe("1 = NIS, 2 = USD");
const Instant = z.string().describe("ISO 8601");

/** `GET /api/donor` query. */
export const DonorQuerySchema = z.object({
  email: email().describe("The donor's email address (any case); every donor record with it is shown"),
});

/** `GET /api/donor`: the donor view of one email address (`lib/donors/donor_view.ts`). */
export const DonorViewSchema = z.object({
  email: z.string().describe("The address, normalized (lower case)"),
  donors: z.array(z.object({
    firstName: z.string(),
    lastName: z.string(),
    country: z.string(),
    createdAt: Instant,
  })).describe("The donor records with this address (one per donation form filled in), oldest first"),
  totals: z.array(z.object({
    currency: Currency,
    amount: z.number().int().describe("Sum of the successful gifts, minor units"),
    count: z.number().int().describe("How many successful gifts"),
  })).describe("Lifetime totals per currency, ascending by currency; empty when no gift succeeded"),
  firstGift: Instant.nullable().describe("The first successful gift's date, or null"),
  lastGift: Instant.nullable().describe("The last successful gift's date, or null"),
  gifts: z.array(z.object({
    id: z.string().describe("The transaction's id"),
    createdAt: Instant,
    status: z.enum(["success", "failed"]),
    statusCode: z.string(),
    isMonthly: z.boolean(),
    amount: z.number().int().nullable().describe("Minor units, when known"),
    currency: Currency.nullable(),
    card: z.string().nullable().describe("Masked card number, when known"),
    receiptNumber: z.string().nullable().describe("The receipt's number, when one was issued"),
    errorMessage: z.string().nullable().describe("Why a failed attempt was declined"),
    refunded: z.number().int().describe("What was refunded of a successful gift, minor units (0: nothing)"),
  })).describe("Every gift and declined attempt, newest first (at most 1,000)"),
  monthly: z.array(z.object({
    state: z.enum(["active", "paused", "failing", "cancelled", "failed"]).describe(
      "paused: a pause or a skipped charge, until `nextCharge`; failing: a declined charge being " +
        "retried; failed: ended after every retry failed",
    ),
    amount: z.number().int().describe("Minor units, from the next charge on"),
    currency: Currency,
    createdAt: Instant,
    nextCharge: Instant.nullable().describe("The next charge (a pause's resume date); null once ended"),
    failedAttempts: z.number().int().describe("Failed attempts of the current period, while failing"),
    retryAt: Instant.nullable().describe("The next retry, while failing"),
    cancelledAt: Instant.nullable(),
    cancelReason: z.string().nullable().describe("The donor's reason for cancelling, when given"),
    card: z.string().nullable().describe("Masked card number"),
  })).describe("Every monthly gift: those that go on first (next charge soonest first), then ended ones"),
  complete: z.boolean().describe(
    "False when the donor has more than 1,000 gifts: the list, totals and dates cover the newest 1,000",
  ),
}).meta({ id: "DonorView" });

/** `GET /api/donor/cancel-reasons`. */
export const CancelReasonsSchema = z.object({
  reasons: z.array(z.object({
    reason: z.string().describe(
      "too-expensive, financial-change, prefer-one-time, moved-away, unhappy or other",
    ),
    count: z.number().int().describe("Monthly gifts cancelled with this reason"),
  })).describe("Every reason the donor's cancel form offers, in its order, 0 when none"),
  total: z.number().int().describe("Cancellations that gave a reason"),
}).meta({ id: "CancelReasons" });
