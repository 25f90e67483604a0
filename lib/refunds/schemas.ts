/**
 * The refunds API's payloads (issue 16), beside `schemas.ts` (which is near its size limit): the
 * request of `POST /api/transaction/{id}/refund` and the refund as answered.
 *
 * @module
 */
import { z } from "zod";
import { CONTROL, LONE_SURROGATE, text } from "@/lib/core/schema_fields.ts";
import { REFUND_REASONS } from "@/lib/storage/refund_types.ts";

/** `POST /api/transaction/{id}/refund` body. */
export const RefundRequestSchema = z.object({
  amount: z.number({ error: "amount must be a number" })
    .int("amount must be a whole number of minor units (agorot, cents)")
    .min(1, "amount must be at least 1")
    .max(Number.MAX_SAFE_INTEGER, "amount is too large")
    .describe("Minor units to give back (agorot, cents); at most what remains of the gift"),
  reason: z.enum(REFUND_REASONS, { error: `reason must be one of ${REFUND_REASONS.join(", ")}` }),
  note: z.string({ error: "note must be a string" }).max(500, "note must be at most 500 characters")
    .refine((s) => !CONTROL.test(s.replace(/[\n\r\t]/g, " ")), "note must not contain control characters")
    .refine((s) => !LONE_SURROGATE.test(s), "note must be valid Unicode text")
    .transform((s) => s.trim()).optional().default("")
    .describe("Free text from the staff member (500 characters at most)"),
  key: text("key", 100)
    .describe("An idempotency key the client makes once per refund (a retry sends the same)"),
  cancelMonthly: z.boolean({ error: "cancelMonthly must be true or false" }).optional().default(false)
    .describe("A monthly gift's refund: also stop the monthly gift (it keeps running otherwise)"),
}).meta({ id: "RefundRequest" });

/** A refund as the API answers it. */
export const RefundSchema = z.object({
  id: z.string(),
  transactionId: z.string(),
  amount: z.number().int().describe("Minor units"),
  currency: z.union([z.literal(1), z.literal(2)]).describe("1 = NIS, 2 = USD"),
  reason: z.enum(REFUND_REASONS),
  note: z.string(),
  actorEmail: z.string().describe("Who asked for it"),
  cancelMonthly: z.boolean(),
  createdAt: z.string(),
  state: z.enum(["pending", "succeeded", "failed"]),
  providerRef: z.string().nullable(),
  error: z.string().nullable(),
  settledAt: z.string().nullable(),
  failureReport: z.object({
    actorEmail: z.string().describe("Who recorded it"),
    at: z.string(),
    confirmable: z.boolean().describe("Whether the caller may confirm it: an owner, another person"),
  }).nullable().describe(
    '"It did not go through", recorded by one person: the refund stays pending, its amount reserved, ' +
      "until an owner (another person) confirms it",
  ),
}).meta({ id: "Refund" });

/** `POST /api/transaction/{id}/refund` answer. */
export const RefundAnswerSchema = z.object({
  refund: RefundSchema,
  repeated: z.boolean().describe("True when the key was used before: the first refund, nothing more done"),
}).meta({ id: "RefundAnswer" });

/** `GET /api/transaction/{id}/refunds` answer. */
export const RefundListSchema = z.object({
  data: z.array(RefundSchema).describe("Oldest first"),
  paid: z.number().int().describe("What the gift paid, minor units"),
  refunded: z.number().int().describe("Succeeded refunds, minor units"),
  pending: z.number().int().describe("Refunds waiting for the provider, minor units"),
  card: z.union([
    z.object({
      available: z.literal(true),
      last4: z.string().nullable().describe("The last four digits of the card that paid, which is credited"),
    }),
    z.object({
      available: z.literal(false),
      reason: z.enum(["unknown", "no-token", "other-provider"]).describe(
        "unknown: the card this gift was charged with is not on record; no-token: the provider credits only " +
          "through a card token and the gift has none; other-provider: paid through another provider",
      ),
      message: z.string().describe("Where to refund it instead (the provider's back office)"),
    }),
  ]).nullable().describe("The card a new refund goes back to (never its token); null for a failed payment"),
}).meta({ id: "RefundList" });

/** `POST /api/transaction/{id}/refund-outcome` body: a person's answer to a pending refund. */
export const RefundOutcomeSchema = z.strictObject({
  refundId: text("refundId", 100).describe("The pending refund (from `GET /api/transaction/{id}/refunds`)"),
  outcome: z.enum(["succeeded", "failed"], { error: "outcome must be succeeded or failed" })
    .describe(
      "What the provider's back office shows: credited (succeeded) or not (failed; recorded as a report " +
        "until an owner, another person, confirms it with the same call)",
    ),
  providerRef: text("providerRef", 100).optional()
    .describe("The credit's id in the provider's back office, when it went through"),
}).meta({ id: "RefundOutcome" });
