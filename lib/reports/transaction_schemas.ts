/**
 * The back office's transaction lists, exports and daily totals (`/api/transaction/…`): queries and answers.
 *
 * @module
 */
import { z } from "zod";
import type { ErrorItem, SuccessItem } from "@/lib/shared/transaction_items.ts";
import { atMost, CONTROL, langParam } from "@/lib/core/schema_fields.ts";
import { isDay } from "@/lib/shared/transaction_filters.ts";
import { chartWidthParam } from "./schemas.ts";

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

/** A museum day `YYYY-MM-DD` (issue 26: the overview's links open a list of days). */
const dayParam = (what: string) =>
  z.string().refine(isDay, `${what} must be a day written YYYY-MM-DD (2000 to 2999), e.g. 2026-11-29`);

/** `from` and `to`: museum days, both included, either or both. */
const dayRange = {
  from: dayParam("from").optional().describe(
    "Only transactions from this day on, YYYY-MM-DD, in the museum's time zone (MUSEUM_TIME_ZONE)",
  ),
  to: dayParam("to").optional().describe("Only transactions up to this day, included, YYYY-MM-DD"),
};
const ordered = (q: { from?: string; to?: string }) => !q.from || !q.to || q.from <= q.to;
const orderedMessage = { message: "from must not be after to", path: ["from"] };

/** `GET /api/transaction/get-all-success-transactions` query. */
export const SuccessListQuerySchema = z.object({
  page: pageParam.optional().default(1),
  limit: limitParam.optional().default(DEFAULT_LIMIT),
  isMonthly: isMonthlyParam.optional(),
  searchString: searchParam.optional(),
  ...dayRange,
  refund: z.enum(["pending"], { error: "refund must be pending" }).optional().describe(
    "`pending`: only the gifts with a refund waiting for the provider's answer (at most 1,000)",
  ),
}).refine(ordered, orderedMessage);

/**
 * `GET /api/transaction/get-all-error-transactions` query: the same filters as the success list
 * (refunds aside: a failed payment has none), and the language of the items' `statusText`.
 */
export const ErrorListQuerySchema = z.object({
  page: pageParam.optional().default(1),
  limit: limitParam.optional().default(DEFAULT_LIMIT),
  isMonthly: isMonthlyParam.optional(),
  searchString: searchParam.optional(),
  ...dayRange,
  lang: langParam.optional().default("en").describe("Language of each item's `statusText`"),
}).refine(ordered, orderedMessage);

/** `GET /api/transaction/export` query. */
export const ExportQuerySchema = z.object({
  type: z.enum(["all", "success", "error"], { error: "type must be all, success or error" })
    .optional().default("all"),
  isMonthly: isMonthlyParam.optional(),
  searchString: searchParam.optional(),
  ...dayRange,
  refund: z.enum(["pending"], { error: "refund must be pending" }).optional().describe(
    "`pending`: only the gifts with a refund waiting for the provider (no failed payments then)",
  ),
  lang: langParam.optional().default("en").describe(
    "Language of the header row and the Status and Payment type words",
  ),
}).refine(ordered, orderedMessage);

/** Largest window of `GET /api/transaction/daily-totals`, in days. */
export const MAX_TOTALS_DAYS = 90;

/** `GET /api/transaction/daily-totals` query. */
export const DailyTotalsQuerySchema = z.object({
  days: z.string().regex(/^\d{1,2}$/, `days must be a whole number from 1 to ${MAX_TOTALS_DAYS}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_TOTALS_DAYS, `days must be a whole number from 1 to ${MAX_TOTALS_DAYS}`)
    .optional().default(30).describe("How many days (the museum's, in its time zone), ending today"),
  // The answer used to carry a chart in this language; it holds figures only now (the back office
  // draws the chart), but the parameter is still accepted, and checked, so no caller's answer changes.
  lang: langParam.optional().describe("Accepted for earlier callers; the answer holds no texts"),
});

/** `GET /api/transaction/daily-totals.svg`: the figures' days, the chart's language and its box's width. */
export const DailyTotalsChartQuerySchema = DailyTotalsQuerySchema.extend({
  lang: langParam.optional().default("en").describe(
    "Language of the chart's words (right to left in Hebrew)",
  ),
  width: chartWidthParam,
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
  errorMessage: z.string().nullable().describe("The provider's own message, as it sent it"),
  statusText: z.string().describe(
    "The error catalogue's text for `statusCode` in `lang` (the generic text for an unknown code)",
  ),
  amount: z.number().int().nullable().describe("Minor units, when known"),
  currency: z.union([z.literal(1), z.literal(2)]).nullable().describe("1 = NIS, 2 = USD, when known"),
  user: UserRef,
}).meta({ id: "ErrorTransaction" });

const CurrencyCodeSchema = z.union([z.literal(1), z.literal(2)]).describe("1 = NIS, 2 = USD");

/** `GET /api/transaction/daily-totals`. */
export const DailyTotalsSchema = z.object({
  from: z.string().describe("First day of the window, YYYY-MM-DD (in timeZone)"),
  to: z.string().describe("Last day of the window (today in timeZone), YYYY-MM-DD"),
  timeZone: z.string().describe(
    "The museum's time zone (MUSEUM_TIME_ZONE, e.g. Asia/Jerusalem): the days are its days",
  ),
  currencies: z.array(CurrencyCodeSchema).describe("The currencies with donations in the window, ascending"),
  days: z.array(z.object({
    date: z.string().describe("YYYY-MM-DD, a day in timeZone (from its midnight to the next)"),
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

// The islands read these answers as lib/shared/transaction_items.ts's types: the two must not part.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameItems: [
  Same<z.output<typeof SuccessTransactionSchema>, SuccessItem>,
  Same<z.output<typeof ErrorTransactionSchema>, ErrorItem>,
] = [true, true];
void sameItems;
