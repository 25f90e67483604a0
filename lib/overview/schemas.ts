/**
 * The overview's API shapes (`GET /api/overview`): its query, checked as the route reads it, and
 * its answer as OpenAPI documents it (the types islands read are in `lib/shared/overview.ts`).
 *
 * @module
 */
import { z } from "zod";
import { langParam } from "@/lib/core/schema_fields.ts";
import { OVERVIEW_LIST_CAP } from "@/lib/shared/overview.ts";

/** `?lang`: the language of the links. */
export const OverviewQuerySchema = z.object({
  lang: langParam.optional().default("en").describe("Language of the links (`/{lang}/admin/…`)"),
});

const Day = z.string().describe("A museum day, YYYY-MM-DD");
const Href = z.string().describe("The back-office page of the filtered list behind the figure");
const Currency = z.union([z.literal(1), z.literal(2)]).describe("1 = NIS, 2 = USD");
const CurrencyTotal = z.object({
  currency: Currency,
  count: z.number().int().describe("How many"),
  amount: z.number().int().describe("Their sum, minor units"),
}).meta({ id: "OverviewCurrencyTotal" });
const Capped = z.boolean().describe(
  `True when there were more than ${OVERVIEW_LIST_CAP} (count is then a floor)`,
);

const Period = z.object({
  from: Day.describe("First museum day counted"),
  to: Day.describe("Last museum day counted"),
  totals: z.array(CurrencyTotal).describe("Per currency with gifts, ascending"),
  href: Href,
}).meta({ id: "OverviewPeriod" });

/** `GET /api/overview`: the parts the caller's role sees (the others are absent). */
export const OverviewSchema = z.object({
  timeZone: z.string().describe(
    "The museum's time zone (MUSEUM_TIME_ZONE): days and months are counted in it",
  ),
  today: Day.describe("Today in the museum's time zone"),
  at: z.string().describe("When the figures were read (ISO 8601)"),
  gifts: z.object({
    today: Period,
    thisMonth: Period.describe("The 1st to today"),
    lastMonthSameDays: Period.describe(
      "Last month's 1st to the same day of the month (its last day if shorter)",
    ),
    lastMonth: Period.describe("The whole of last month"),
  }).optional().describe(
    "Every role. Successful gifts (one-time and monthly charges, with a known amount) by when they were " +
      "recorded; failed payments and refunds are not subtracted",
  ),
  monthlyFailing: z.object({
    count: z.number().int().describe(
      "Monthly gifts whose last charge was declined and that will be charged again",
    ),
    capped: Capped,
    next: z.array(z.object({
      nextTryAt: z.string().describe("When it is charged again (ISO 8601; past: at the next billing pass)"),
      failedAttempts: z.number().int().describe("Declined attempts of this month's charge"),
      amount: z.number().int().describe("Minor units"),
      currency: Currency,
    })).describe("The first three to be tried again"),
    href: Href.describe("The declined monthly charges since the earliest of these gifts' due dates"),
  }).optional().describe("Every role"),
  refunds: z.object({
    count: z.number().int().describe("Refunds waiting for the provider's answer"),
    capped: Capped,
    pending: z.array(CurrencyTotal).describe("Their sums per currency"),
    href: Href.describe("The gifts with a refund pending"),
  }).optional().describe("owner, admin, finance"),
  email: z.object({
    count: z.number().int().describe(
      "Messages enqueued since `since` that failed for good or wait for a retry",
    ),
    failed: z.number().int(),
    retrying: z.number().int(),
    capped: Capped,
    since: Day.describe("The first day counted: the last seven days, today included"),
    href: Href,
  }).optional().describe("owner, admin"),
  approvals: z.object({
    count: z.number().int().describe("Accounts waiting for approval"),
    href: Href,
  }).optional().describe("owner"),
  kiosks: z.object({
    count: z.number().int().describe("Paired kiosks with no sale or pairing for 24 hours"),
    devices: z.array(z.object({
      name: z.string(),
      shopNumber: z.string(),
      lastSeenAt: z.string().nullable().describe("Its last sale, else its pairing"),
    })).describe("The first three, longest unseen first"),
    href: Href,
  }).optional().describe("owner, admin"),
}).meta({ id: "Overview" });
