/**
 * The reports' and transaction lists' API operations as the OpenAPI document describes them: one export per
 * route, which the route re-exports as its `docs` (`lib/app/openapi.ts` builds the document from them).
 *
 * @module
 */
import { z } from "zod";
import {
  MonthlyReportSchema,
  ReportChartQuerySchema,
  ReportFileQuerySchema,
  ReportQuerySchema,
} from "./schemas.ts";
import {
  DailyTotalsChartQuerySchema,
  DailyTotalsQuerySchema,
  DailyTotalsSchema,
  ErrorListQuerySchema,
  ErrorTransactionSchema,
  ExportQuerySchema,
  listResponse,
  SuccessListQuerySchema,
  SuccessTransactionSchema,
} from "./transaction_schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

/** `GET /api/reports/monthly`. */
export const monthlyReportDocs: RouteDocs = {
  GET: {
    summary: "The accountant's monthly report",
    description: "Per month in the museum's time zone (`MUSEUM_TIME_ZONE`, Asia/Jerusalem by default; the " +
      "answer's `timeZone`), `from` to `to` included (at most " +
      "36 months; default the last twelve): successful donations, refunds and net per currency, one-time " +
      "and monthly (minor units, with counts); distinct donors (by email); monthly gifts started and " +
      "cancelled; failed payments and charges. A gift counts in the month it was made, a refund in the " +
      "month it was made. The sums equal those of the transaction lists over the same instants.",
    tags: ["reports"],
    auth: "bearer",
    query: ReportQuerySchema,
    responses: {
      200: { description: "The report", schema: MonthlyReportSchema },
      400: { description: "A malformed month, `to` before `from`, or more than 36 months" },
      403: { description: "The admin is not approved yet, or has a role that may not see reports" },
    },
  },
};

/** `GET /api/reports/monthly.csv`. */
export const monthlyReportCsvDocs: RouteDocs = {
  GET: {
    summary: "The monthly report as a CSV file",
    description:
      "The figures of `GET /api/reports/monthly`, one row per month, oldest first: for ILS, then " +
      "USD (always both), one-time and monthly donations with counts, all donations, refunds of one-time " +
      "and of monthly gifts, the count of refunds, the net, new and cancelled monthly gifts (count and " +
      "amount per month); then donors, failed one-time payments and failed monthly charges. Amounts in " +
      "major units, two decimals, a dot. UTF-8 with a byte order mark, RFC 4180; the header row in `lang`. " +
      "Each download is written to the audit log (`export`, with the months).",
    tags: ["reports"],
    auth: "bearer",
    query: ReportFileQuerySchema,
    responses: {
      200: {
        description: "The CSV file (UTF-8, with a byte order mark)",
        mediaType: "text/csv",
        schema: z.string(),
        headers: { "Content-Disposition": 'attachment; filename="monthly-report-FROM-TO.csv"' },
      },
      400: { description: "A malformed month, `to` before `from`, or more than 36 months" },
      403: { description: "The admin is not approved yet, or has a role that may not see reports" },
    },
  },
};

/** `GET /api/reports/monthly.svg`. */
export const monthlyReportChartDocs: RouteDocs = {
  GET: {
    summary: "The monthly report's chart, drawn on the server",
    description: "An SVG image of the figures of `GET /api/reports/monthly`: one panel per currency, per " +
      "month a bar of donations (one-time and monthly) and a bar of refunds, words in `lang` (right to " +
      'left in Hebrew). One `role="img"` named by its title and description; the back office puts it in ' +
      "the report page beside the table.",
    tags: ["reports"],
    auth: "bearer",
    query: ReportChartQuerySchema,
    responses: {
      200: { description: "The chart", mediaType: "image/svg+xml", schema: z.string() },
      400: {
        description: "A malformed month, `to` before `from`, more than 36 months, or a width out of range",
      },
      403: { description: "The admin is not approved yet, or has a role that may not see reports" },
    },
  },
};

/** `GET /api/transaction/daily-totals`. */
export const dailyTotalsDocs: RouteDocs = {
  GET: {
    summary: "Successful donations per day",
    description: "The last `days` days in the museum's time zone (`timeZone`), today included, oldest " +
      "first: every day, with one total per " +
      "currency that had successful donations (amounts in minor units; errors do not count). Data " +
      "only: the back office draws its chart from these figures.",
    tags: ["transactions"],
    auth: "bearer",
    query: DailyTotalsQuerySchema,
    responses: {
      200: { description: "The window's days", schema: DailyTotalsSchema },
      403: { description: "The admin is not approved yet" },
    },
  },
};

/** `GET /api/transaction/daily-totals.svg`. */
export const dailyTotalsChartDocs: RouteDocs = {
  GET: {
    summary: "The daily totals chart, drawn on the server",
    description: "An SVG image of the figures of `GET /api/transaction/daily-totals`: one panel per " +
      "currency with its money lines, a bar per day and the dates, or one panel saying there were no " +
      "donations; words in `lang` (right to left in Hebrew), laid out for a box `width` CSS pixels " +
      'wide. One `role="img"` named by its title and description; the back office puts it in the ' +
      "transactions section above the same figures as a table.",
    tags: ["transactions"],
    auth: "bearer",
    query: DailyTotalsChartQuerySchema,
    responses: {
      200: { description: "The chart", mediaType: "image/svg+xml", schema: z.string() },
      400: { description: "`days` out of 1 to 90, an unknown language, or a width out of range" },
      403: { description: "The admin is not approved yet" },
    },
  },
};

/** `GET /api/transaction/export`. */
export const transactionsExportDocs: RouteDocs = {
  GET: {
    summary: "Every matching transaction as a CSV file",
    description: "All rows matching the filters, not one page, newest first; with `type=all` successes " +
      "and errors merged by time. The filters are the lists' (`isMonthly`, `from` and `to` apply to both " +
      "kinds; `refund=pending` keeps the gifts with a refund pending). " +
      "UTF-8 with a byte order mark, RFC 4180 (CRLF, quoted fields). Columns: Date (`YYYY-MM-DD " +
      "HH:MM:SS` on the museum's clock, `MUSEUM_TIME_ZONE`, named in the header; its day is the day " +
      "the daily totals and the monthly report count the transaction on), Status, Status code, First name, Last name, Email, Payment type, " +
      "Card number, Credit type, Amount (major units, two decimals, dot), Currency (ILS or USD), " +
      "Error message, Transaction ID; the header row and the Status and Payment type words in " +
      "`lang`. Cells that a spreadsheet would read as a formula start with `'`. The body is " +
      "streamed: a storage failure after the first rows aborts the response (it is logged). Each export " +
      "is audited (`export`, with its filters).",
    tags: ["transactions"],
    auth: "bearer",
    query: ExportQuerySchema,
    responses: {
      200: {
        description: "The CSV file (UTF-8, with a byte order mark)",
        mediaType: "text/csv",
        schema: z.string(),
        headers: {
          "Content-Disposition": 'attachment; filename="transactions-YYYY-MM-DD.csv" (the museum\'s date)',
        },
      },
      403: { description: "The admin is not approved yet" },
    },
  },
};

/** `GET /api/transaction/get-all-error-transactions`. */
export const errorTransactionsDocs: RouteDocs = {
  GET: {
    summary: "Failed transactions, newest first",
    description: "`isMonthly=true` keeps failed monthly payments (first gifts and monthly charges), " +
      "`isMonthly=false` one-time ones. `searchString` matches the donor's email, first or last name, " +
      "case-insensitively, anywhere (a viewer's, the first or last name only). Each item has the " +
      "error catalogue's text for its code in `lang` (`statusText`) beside the provider's own message. " +
      "`from` and `to` keep the failures of those museum days (the overview's links).",
    tags: ["transactions"],
    auth: "bearer",
    query: ErrorListQuerySchema,
    responses: {
      200: { description: "One page", schema: listResponse(ErrorTransactionSchema, "ErrorTransactionList") },
      403: { description: "The admin is not approved yet" },
    },
  },
};

/** `GET /api/transaction/get-all-success-transactions`. */
export const successTransactionsDocs: RouteDocs = {
  GET: {
    summary: "Successful transactions, newest first",
    description:
      "`searchString` matches the donor's email, first or last name, case-insensitively, anywhere " +
      "(a viewer's, the first or last name only). " +
      "Each item carries its receipt's number and admin download path (`receipt`). `from` and `to` " +
      "keep the gifts of those museum days (the overview's links); `refund=pending` the gifts with a " +
      "refund waiting for the provider.",
    tags: ["transactions"],
    auth: "bearer",
    query: SuccessListQuerySchema,
    responses: {
      200: {
        description: "One page",
        schema: listResponse(SuccessTransactionSchema, "SuccessTransactionList"),
      },
      403: { description: "The admin is not approved yet" },
    },
  },
};
