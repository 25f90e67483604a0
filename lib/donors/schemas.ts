/**
 * Donors' API payloads: the record the donation form creates (`POST /api/user`), and the back office
 * donor API's payloads (`GET /api/donor`, `GET /api/donor/cancel-reasons`), as zod
 * schemas: the query is validated with them, and the OpenAPI document describes both from them.
 * Kept beside `donor_view.ts`, which builds the answers.
 *
 * @module
 */
import { z } from "zod";
import { atMost, email, langParam, text } from "@/lib/core/schema_fields.ts";
import { ISRAELI_ID_MAX_INPUT, type IsraeliIdProblem, parseIsraeliId } from "@/lib/shared/israeli_id.ts";

const Currency = z.union([z.literal(1), z.literal(2)]).describe("1 = NIS, 2 = USD");
const Instant = z.string().describe("ISO 8601");

/** `GET /api/donor` query. */
export const DonorQuerySchema = z.object({
  email: email().describe("The donor's email address (any case); every donor record with it is shown"),
  lang: langParam.optional().default("en").describe("Language of each failed gift's `statusText`"),
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
    errorMessage: z.string().nullable().describe(
      "Why a failed attempt was declined: the provider's own message",
    ),
    statusText: z.string().nullable().describe(
      "A failed attempt's error catalogue text for `statusCode` in `lang` (the generic text for an " +
        "unknown code); null for a success",
    ),
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

// ---- the donation form's donor record -------------------------------------------------------

/** The API's words for each refusal of an Israeli ID number (`lib/shared/israeli_id.ts`). */
const ISRAELI_ID_MESSAGES: Record<IsraeliIdProblem, string> = {
  "taxReceipt.enterId": "israeliId is empty; leave it out (or null) when no Israeli tax receipt is wanted",
  "taxReceipt.idFormat": "israeliId must be an Israeli ID number: up to 9 digits, not all zeros",
  "taxReceipt.idCheckDigit": "israeliId is not a valid Israeli ID number: its check digit is wrong",
};

/**
 * The donor's Israeli ID number, for a Section 46 receipt: its nine digits (shorter numbers
 * left-padded), or `null` when none is given. Neither the number nor any part of it goes into a
 * message, since messages may be logged.
 */
export const israeliId = () =>
  z.string({ error: "israeliId must be a string of digits" })
    .max(ISRAELI_ID_MAX_INPUT, atMost("israeliId", ISRAELI_ID_MAX_INPUT))
    .transform((s, ctx) => {
      const parsed = parseIsraeliId(s.trim());
      if ("id" in parsed) return parsed.id;
      ctx.issues.push({ code: "custom", message: ISRAELI_ID_MESSAGES[parsed.problem], input: "" });
      return z.NEVER;
    })
    .nullable()
    .optional()
    .transform((id) => id ?? null);

/** `POST /api/user`. */
export const CreateDonorSchema = z.object({
  firstName: text("firstName", 100),
  lastName: text("lastName", 100),
  email: email(),
  country: text("country", 100),
  israeliId: israeliId().describe(
    "Optional: the donor's Israeli ID number (ת.ז.) for a Section 46 tax receipt on gifts in NIS; 9 digits " +
      "with its check digit (shorter numbers are left-padded with zeros; spaces and dashes are ignored). " +
      "Stored, printed on the donor's Israeli receipts, never answered by the API.",
  ),
}).meta({ id: "CreateDonor" });

/** The user fields of spec section 3, as the API answers them. */
export const DonorSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  country: z.string(),
  paymentDate: z.string().nullable().describe("Last successful payment, ISO 8601"),
  nextPaymentDate: z.string().nullable().describe("Next monthly charge, ISO 8601"),
  monthlyPaymentAvailable: z.boolean(),
}).meta({ id: "User" });
