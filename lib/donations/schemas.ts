/**
 * The payment calls' payloads (`/api/payment/…`, spec section 7), signed as every browser and kiosk call is.
 *
 * @module
 */
import { z } from "zod";

/** The fields every signed payload carries besides its own (spec section 7). */
export const SignedFields = {
  keyId: z.string().describe("Browser key id (v1.<expiry>.<random>) or a server-to-server key id"),
  timestamp: z.number().int().describe(
    "Milliseconds since the epoch; within 5 minutes of the server's clock",
  ),
  nonce: z.string().describe("Random, 16 to 128 characters of [A-Za-z0-9_-]; never reused"),
  signature: z.string().describe("Hex HMAC-SHA256 of the sorted key=value pairs, signature excluded"),
};

const amountField = z.number({ error: "amount must be a number" })
  .refine(Number.isFinite, "amount must be a finite number");
const languageField = z.enum(["en", "he", "ru", "pt", "es"], {
  error: "language must be en, he, ru, pt or es",
});
const userIdField = z.string({ error: "userId must be a string" }).regex(
  /^[A-Za-z0-9_-]{16,64}$/,
  "userId is not a donor id",
);

const levelIdField = z.number({ error: "levelId must be a number" }).int("levelId must be a level's id")
  .min(1, "levelId must be a level's id").max(999, "levelId must be a level's id").optional().describe(
    "The membership level (tier) the donor picked: the amount must be its price in the currency, and " +
      "the gift makes or renews the donor's membership. Absent for any other gift (an other amount " +
      "equal to a price stays a donation)",
  );

const giftText = (field: string, what: string) =>
  z.string({ error: `${field} must be a string` }).max(2_000, `${field} is too long`).optional().describe(
    what,
  );

/**
 * A gift membership's optional fields (issue 28; flat, as signed payloads are): given, the gift
 * at `levelId` (one-time) is a membership for the recipient (`lib/shared/gift_membership.ts`).
 */
const GiftFields = {
  giftName: giftText("giftName", "Gift membership: the recipient's name (1 to 100 characters)"),
  giftEmail: giftText("giftEmail", "Gift membership: the recipient's email (their membership is by it)"),
  giftDate: giftText(
    "giftDate",
    "Gift membership: the delivery day, YYYY-MM-DD, today to 90 days ahead (UTC); the welcome and card " +
      "are emailed from its start; the term starts at payment",
  ),
  giftMessage: giftText("giftMessage", "Gift membership: the giver's message, at most 500 characters"),
  giftReminders: z.enum(["giver", "recipient", "both"], {
    error: "giftReminders must be giver, recipient or both",
  }).optional().describe("Gift membership: who gets the renewal reminders (default: recipient)"),
  giftLanguage: languageField.optional().describe(
    "Gift membership: the recipient's language (default: `language`)",
  ),
};

/** `POST /api/payment/create` (signed). */
export const CreatePaymentSchema = z.object({
  amount: amountField.describe("Major units (e.g. 100 for 100 NIS); at least 1"),
  currency: z.enum(["nis", "dollars"], { error: "currency must be nis or dollars" }),
  userId: userIdField,
  isMonthly: z.boolean({ error: "isMonthly must be true or false" }),
  language: languageField,
  levelId: levelIdField,
  autoRenew: z.boolean({ error: "autoRenew must be true or false" }).optional().describe(
    'The donor ticked "renew automatically every year" (a one-time gift at a level only): the ' +
      "payment's card is kept with the membership and charged the level's price at each end",
  ),
  ...GiftFields,
  ...SignedFields,
}).meta({ id: "CreatePayment" });

/** `POST /api/payment/pay-emv` (signed). */
export const PayEmvSchema = z.object({
  amount: amountField.describe("Major units; at least 1"),
  currency: z.enum(["nis", "dollars"], { error: "currency must be nis or dollars" }),
  userId: userIdField,
  language: languageField,
  isMonthly: z.boolean({ error: "isMonthly must be true or false" }),
  shopNumber: z.union([z.string(), z.number()], { error: "shopNumber must be a string" })
    .transform(String)
    .pipe(z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "shopNumber must be 1 to 32 letters, digits, _ or -")),
  levelId: levelIdField,
  ...SignedFields,
}).meta({ id: "PayEmv" });

/** `POST /api/payment/test-emv/{terminalNumber}`: an optional body. */
export const TestEmvSchema = z.object({
  language: languageField.optional(),
  shopNumber: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "shopNumber must be 1 to 32 letters, digits, _ or -")
    .optional(),
}).meta({ id: "TestEmv" });

export const PaymentUrlSchema = z.object({
  url: z.string().describe("The page to show (payment frame) or open"),
})
  .meta({ id: "PaymentUrl" });

export const TerminalResultSchema = z.object({
  StatusCode: z.string().describe('"000" is success'),
  ErrorMessage: z.string(),
  ResultData: z.object({
    TransactionId: z.string(),
    ShvaResult: z.string().describe("Clearing-house result"),
    VoucherId: z.string(),
    PelecardTransactionId: z.string(),
  }).loose(),
}).meta({ id: "TerminalResult" });
