/**
 * The monthly report's API shapes (`GET /api/reports/monthly`, `.csv`, `.svg`): the query, checked
 * as the routes read it, and the JSON answer as OpenAPI documents it.
 *
 * @module
 */
import { z } from "zod";
import { CHART_WIDTHS } from "@/lib/shared/axis_labels.ts";
import { MAX_REPORT_MONTHS } from "./monthly.ts";

const month = (what: string) =>
  z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, `${what} must be a month written YYYY-MM, e.g. 2026-01`);

/** `?from&to`: the months, both included (at most 36; default the last twelve). */
export const ReportQuerySchema = z.object({
  from: month("from").optional().describe(
    `First month, YYYY-MM (years 1970 to 9998), in the museum's time zone; default \`to\`, and without ` +
      `either the twelve months ending with this month; at most ${MAX_REPORT_MONTHS} months in all`,
  ),
  to: month("to").optional().describe("Last month, YYYY-MM, included (default: `from`)"),
});

/** The query of the CSV and the chart: the months and the language of their words. */
export const ReportFileQuerySchema = ReportQuerySchema.extend({
  lang: z.enum(["en", "he", "ru", "pt", "es"], { error: "lang must be en, he, ru, pt or es" }).optional()
    .default("en").describe("Language of the header row, or of the chart's words"),
});

/**
 * `width`: the width in CSS pixels of the box a chart the server draws is shown in (this report's,
 * the daily totals'), so its type keeps its size.
 */
export const chartWidthParam = z.string().regex(
  /^\d{3,4}$/,
  `width must be a whole number of pixels from ${CHART_WIDTHS.min} to ${CHART_WIDTHS.max}`,
).transform(Number).pipe(
  z.number().min(CHART_WIDTHS.min, `width must be at least ${CHART_WIDTHS.min}`)
    .max(CHART_WIDTHS.max, `width must be at most ${CHART_WIDTHS.max}`),
).optional().describe(
  `The width in CSS pixels of the box the chart is shown in (default ${CHART_WIDTHS.default}), so ` +
    "its type keeps its size: a narrow box gets more lines, not smaller type",
);

/** The chart's query: the CSV's, and the width of the box it is drawn for. */
export const ReportChartQuerySchema = ReportFileQuerySchema.extend({ width: chartWidthParam });

const Currency = z.union([z.literal(1), z.literal(2)]).describe("1 = NIS, 2 = USD");
const Sum = z.object({
  amount: z.number().int().describe("Minor units"),
  count: z.number().int().describe("How many"),
});
const Kinds = z.object({ oneTime: Sum, monthly: Sum, total: Sum });
const CurrencyFigures = z.object({
  currency: Currency,
  donations: Kinds.describe("Successful gifts created in the month (with a known amount)"),
  refunds: Kinds.describe("Refunds made in the month, by the kind of gift refunded"),
  net: z.object({ oneTime: z.number().int(), monthly: z.number().int(), total: z.number().int() })
    .describe("Donations minus refunds, minor units"),
  newMonthly: Sum.describe("Monthly gifts that started in the month (amount: per month)"),
  cancelledMonthly: Sum.describe("Monthly gifts cancelled in the month (amount: per month)"),
});

/** `GET /api/reports/monthly`. */
export const MonthlyReportSchema = z.object({
  from: z.string().describe("First month, YYYY-MM"),
  to: z.string().describe("Last month, YYYY-MM"),
  timeZone: z.string().describe("The time zone the months are counted in (the museum's)"),
  currencies: z.array(Currency).describe("The currencies with any figure in the range, ascending"),
  months: z.array(z.object({
    month: z.string().describe("YYYY-MM"),
    start: z.string().describe("The instant the month starts (ISO 8601)"),
    end: z.string().describe("The instant the next month starts"),
    money: z.array(CurrencyFigures).describe("One entry per currency of the report"),
    donors: z.number().int().describe("Distinct donors (by email) with a successful gift in the month"),
    failedCharges: z.object({ oneTime: z.number().int(), monthly: z.number().int(), total: z.number().int() })
      .describe("Declined or failed payments and monthly charges"),
  })).describe("Every month of the range, oldest first"),
  totals: z.array(CurrencyFigures).describe("The whole range per currency"),
}).meta({ id: "MonthlyReport" });
