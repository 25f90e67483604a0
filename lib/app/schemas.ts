/**
 * One zod schema per API payload and query, shared by the server (validation, OpenAPI) and, where
 * useful, islands. Strings are trimmed and bounded; control characters are refused; emails are
 * normalized to lower case. Messages are the API's (English); pages show their own translations.
 *
 * @module
 */
import { ADMIN_ROLES } from "@/lib/storage/types.ts";
import { z } from "zod";

import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from "@/lib/shared/donation.ts";
import { ISRAELI_ID_MAX_INPUT, type IsraeliIdProblem, parseIsraeliId } from "@/lib/shared/israeli_id.ts";

export { EMAIL_PATTERN };
/**
 * C0 and C1 control characters (tab, newline, NUL, …); format characters such as the
 * right-to-left mark are allowed, since Hebrew text may carry them.
 */
// deno-lint-ignore no-control-regex
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A UTF-16 surrogate without its pair: not text. PostgreSQL would store U+FFFD in its place where
 * Deno KV keeps it, so the two backends would disagree about the same input.
 */
export const LONE_SURROGATE = /(?:^|[^\ud800-\udbff])[\udc00-\udfff]|[\ud800-\udbff](?![\udc00-\udfff])/;

// Every length check below aborts (`abort: true`): zod otherwise goes on to run the field's
// patterns and refinements on input it has already refused, so a 64 KB field cost a pattern's
// worst case on 64 KB instead of nothing. Length first, then anything that reads the characters.
const required = (label: string) => ({ error: `${label} is required`, abort: true });
const atMost = (label: string, max: number, what = `${label} must be at most ${max} characters`) => ({
  error: what,
  abort: true,
});

/** A required, trimmed, bounded text field without control characters or lone surrogates. */
export function text(label: string, max: number) {
  return z.string({ error: `${label} must be a string` })
    .trim()
    .min(1, required(label))
    .max(max, atMost(label, max))
    .refine((s) => !CONTROL.test(s), `${label} must not contain control characters`)
    .refine((s) => !LONE_SURROGATE.test(s), `${label} must be valid Unicode text`);
}

/**
 * A required email, trimmed and lower-cased. The pattern lets any non-space through, so control
 * characters (a NUL fails PostgreSQL's text) and lone surrogates are refused on their own.
 */
export const email = () =>
  z.string({ error: "email must be a string" })
    .trim()
    .min(1, required("email"))
    .max(EMAIL_MAX_LENGTH, atMost("email", EMAIL_MAX_LENGTH))
    .regex(EMAIL_PATTERN, "email is not a valid email address")
    .refine((s) => !CONTROL.test(s) && !LONE_SURROGATE.test(s), "email is not a valid email address")
    .transform((s) => s.toLowerCase());

// ---- donors ---------------------------------------------------------------------------------

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

// ---- admins ---------------------------------------------------------------------------------

/** Passwords are checked for policy by the server (length, common passwords), not here. */
const password = () =>
  z.string({ error: "password must be a string" }).min(1, required("password"))
    .max(1024, atMost("password", 1024, "password is too long"));

/** `POST /api/auth/admin/register`: the spec sends email and password; `name` is accepted too. */
export const AdminRegisterSchema = z.object({
  email: email(),
  password: password(),
  name: text("name", 100).refine((s) => [...s].length >= 2, "name must be at least 2 characters").optional(),
}).meta({ id: "AdminRegister" });

/** `POST /api/auth/admin/login`. */
export const AdminLoginSchema = z.object({ email: email(), password: password() }).meta({ id: "AdminLogin" });

/** `POST /api/auth/admin/refresh` and `POST /api/auth/admin/logout`. */
export const RefreshSchema = z.object({
  refreshToken: z.string({ error: "refreshToken must be a string" }).min(1, required("refreshToken"))
    .max(200, atMost("refreshToken", 200, "refreshToken is too long")),
}).meta({ id: "RefreshRequest" });

export const AdminSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  createdAt: z.string(),
  status: z.enum(["approved", "pending", "rejected", "deactivated"]),
  role: z.enum(ADMIN_ROLES).nullable().describe(
    "owner, admin, finance or viewer (approved and deactivated admins); null while pending or rejected",
  ),
}).meta({ id: "Admin" });

/** `POST /api/auth/admin/{id}/approve` (optional body) and `POST /api/auth/admin/{id}/role`. */
export const AdminRoleSchema = z.strictObject({
  role: z.enum(ADMIN_ROLES).describe("What the admin may do: owner, admin, finance or viewer"),
}).meta({ id: "AdminRole" });

export const AdminSessionSchema = AdminSchema.extend({
  accessToken: z.string(),
  refreshToken: z.string(),
}).meta({ id: "AdminSession" });

export const TokenPairSchema = z.object({
  data: z.object({ accessToken: z.string(), refreshToken: z.string() }),
}).meta({ id: "TokenPair" });

// ---- transaction lists ----------------------------------------------------------------------

/** Largest page size of the transaction lists. */
export const MAX_LIMIT = 100;
/** Default page size of the transaction lists (spec section 9). */
export const DEFAULT_LIMIT = 10;
const MAX_PAGE = 1_000_000;

const pageParam = z.string().regex(/^\d{1,7}$/, `page must be a whole number from 1 to ${MAX_PAGE}`)
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_PAGE, `page must be a whole number from 1 to ${MAX_PAGE}`);
const limitParam = z.string().regex(/^\d{1,4}$/, `limit must be a whole number from 1 to ${MAX_LIMIT}`)
  .transform(Number)
  .refine((n) => n >= 1 && n <= MAX_LIMIT, `limit must be a whole number from 1 to ${MAX_LIMIT}`);
const searchParam = z.string().max(100, atMost("searchString", 100))
  .refine((s) => !CONTROL.test(s), "searchString must not contain control characters")
  .transform((s) => s.trim() || undefined);

const isMonthlyParam = z.enum(["true", "false"], { error: "isMonthly must be true or false" })
  .transform((s) => s === "true");
const langParam = z.enum(["en", "he", "ru", "pt", "es"], { error: "lang must be en, he, ru, pt or es" });

/** `GET /api/transaction/get-all-success-transactions` query. */
export const SuccessListQuerySchema = z.object({
  page: pageParam.optional().default(1),
  limit: limitParam.optional().default(DEFAULT_LIMIT),
  isMonthly: isMonthlyParam.optional(),
  searchString: searchParam.optional(),
});

/** `GET /api/transaction/get-all-error-transactions` query: the same filters as the success list. */
export const ErrorListQuerySchema = SuccessListQuerySchema;

/** `GET /api/transaction/export` query. */
export const ExportQuerySchema = z.object({
  type: z.enum(["all", "success", "error"], { error: "type must be all, success or error" })
    .optional().default("all"),
  isMonthly: isMonthlyParam.optional(),
  searchString: searchParam.optional(),
  lang: langParam.optional().default("en").describe(
    "Language of the header row and the Status and Payment type words",
  ),
});

/** Largest window of `GET /api/transaction/daily-totals`, in days. */
export const MAX_TOTALS_DAYS = 90;

/** `GET /api/transaction/daily-totals` query. */
export const DailyTotalsQuerySchema = z.object({
  days: z.string().regex(/^\d{1,2}$/, `days must be a whole number from 1 to ${MAX_TOTALS_DAYS}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_TOTALS_DAYS, `days must be a whole number from 1 to ${MAX_TOTALS_DAYS}`)
    .optional().default(30).describe("How many UTC days, ending today"),
  // The answer used to carry a chart in this language; it holds figures only now (the back office
  // draws the chart), but the parameter is still accepted, and checked, so no caller's answer changes.
  lang: langParam.optional().describe("Accepted for earlier callers; the answer holds no texts"),
});

const UserRef = z.object({ firstName: z.string(), lastName: z.string(), email: z.string() });

export const SuccessTransactionSchema = z.object({
  id: z.string(),
  statusCode: z.literal("000"),
  isMonthly: z.boolean(),
  createdAt: z.string(),
  resultData: z.object({
    CreditCardNumber: z.string().describe("Masked card number"),
    CreditType: z.string(),
    DebitTotal: z.string().describe("Amount in minor units (agorot, cents), as a numeric string"),
    DebitCurrency: z.union([z.literal(1), z.literal(2)]).describe("1 = NIS, 2 = USD"),
  }),
  user: UserRef,
  receipt: z.object({
    number: z.string().nullable().describe("The receipt's number, or null until it is issued"),
    url: z.string().describe(
      "Admin download path of the receipt's PDF (`GET /api/transaction/{id}/receipt`); issues it if needed",
    ),
  }).nullable().describe(
    "The gift's legal receipt; null when receipts are not configured and none was issued",
  ),
  refund: z.object({
    refunded: z.number().int().describe("Refunds that succeeded, minor units"),
    pending: z.number().int().describe("Refunds waiting for the provider, minor units"),
  }).nullable().describe("What was refunded of the gift (issue 16); null when nothing was"),
}).meta({ id: "SuccessTransaction" });

export const ErrorTransactionSchema = z.object({
  id: z.string(),
  statusCode: z.string(),
  isMonthly: z.boolean(),
  createdAt: z.string(),
  errorMessage: z.string().nullable(),
  amount: z.number().int().nullable().describe("Minor units, when known"),
  currency: z.union([z.literal(1), z.literal(2)]).nullable().describe("1 = NIS, 2 = USD, when known"),
  user: UserRef,
}).meta({ id: "ErrorTransaction" });

const CurrencyCodeSchema = z.union([z.literal(1), z.literal(2)]).describe("1 = NIS, 2 = USD");

/** `GET /api/transaction/daily-totals`. */
export const DailyTotalsSchema = z.object({
  from: z.string().describe("First day of the window, YYYY-MM-DD (UTC)"),
  to: z.string().describe("Last day of the window (today), YYYY-MM-DD (UTC)"),
  timeZone: z.literal("UTC"),
  currencies: z.array(CurrencyCodeSchema).describe("The currencies with donations in the window, ascending"),
  days: z.array(z.object({
    date: z.string().describe("YYYY-MM-DD (UTC)"),
    totals: z.array(z.object({
      currency: CurrencyCodeSchema,
      amount: z.number().int().describe("Sum of the day's successful donations, minor units"),
      count: z.number().int().describe("How many"),
    })).describe("One entry per currency with donations that day; empty when none"),
  })).describe("Every day of the window, oldest first"),
}).meta({ id: "DailyTotals" });

/** `{ data, page, limit, total }`. */
export function listResponse<T extends z.ZodType>(item: T, id: string) {
  return z.object({
    data: z.array(item),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
  }).meta({ id });
}

/** The fields every signed payload carries besides its own (spec section 7). */
export const SignedFields = {
  keyId: z.string().describe("Browser key id (v1.<expiry>.<random>) or a server-to-server key id"),
  timestamp: z.number().int().describe(
    "Milliseconds since the epoch; within 5 minutes of the server's clock",
  ),
  nonce: z.string().describe("Random, 16 to 128 characters of [A-Za-z0-9_-]; never reused"),
  signature: z.string().describe("Hex HMAC-SHA256 of the sorted key=value pairs, signature excluded"),
};

// ---- payments -------------------------------------------------------------------------------

const amountField = z.number({ error: "amount must be a number" })
  .refine(Number.isFinite, "amount must be a finite number");
const languageField = z.enum(["en", "he", "ru", "pt", "es"], {
  error: "language must be en, he, ru, pt or es",
});
const userIdField = z.string({ error: "userId must be a string" }).regex(
  /^[A-Za-z0-9_-]{16,64}$/,
  "userId is not a donor id",
);

/** `POST /api/payment/create` (signed). */
export const CreatePaymentSchema = z.object({
  amount: amountField.describe("Major units (e.g. 100 for 100 NIS); at least 1"),
  currency: z.enum(["nis", "dollars"], { error: "currency must be nis or dollars" }),
  userId: userIdField,
  isMonthly: z.boolean({ error: "isMonthly must be true or false" }),
  language: languageField,
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

// ---- common ---------------------------------------------------------------------------------

export const ErrorSchema = z.object({
  message: z.string(),
  statusCode: z.number().int(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
}).meta({ id: "Error" });

export const FeatureFlagsSchema = z.array(z.object({ flag: z.string(), enabled: z.boolean() })).meta({
  id: "FeatureFlags",
});

// ---- back office: receipts and the outbox ----------------------------------------------------

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

/** `GET /api/outbox` query. */
export const OutboxQuerySchema = z.object({
  cursor: z.string().max(2000, atMost("cursor", 2000)).optional().describe(
    "The previous page's nextCursor; none for the newest messages",
  ),
  limit: z.string().regex(/^\d{1,3}$/, "limit must be a whole number from 1 to 100").transform(Number)
    .refine((n) => n >= 1 && n <= 100, "limit must be a whole number from 1 to 100").optional().default(20),
});

/** One page of `GET /api/outbox`. */
export const OutboxPageSchema = z.object({
  data: z.array(
    z.object({
      id: z.string().describe("A stable reference to the message (not its key)"),
      kind: z.string().describe("receipt, monthly-welcome, charge-failed, monthly-cancelled, ..."),
      recipient: z.enum(["donor", "admins"]),
      language: z.string(),
      state: z.enum(["queued", "sent", "skipped", "failed"]),
      attempts: z.number().int(),
      lastError: z.string().nullable().describe(
        "Why the last attempt failed or it was skipped; addresses masked",
      ),
      createdAt: z.string(),
      settledAt: z.string().nullable().describe("When it was sent, skipped or failed for good"),
      nextAttemptAt: z.string().nullable().describe("While queued: when it is next tried"),
    }).meta({ id: "OutboxMessage" }),
  ),
  nextCursor: z.string().nullable().describe("The next (older) page's cursor, or null at the end"),
}).meta({ id: "OutboxPage" });
