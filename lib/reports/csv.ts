/**
 * The monthly report as a CSV file for the accountant: one row per month, the same figures as the
 * table (`monthly.ts`), columns in a fixed order whatever the range holds (both currencies always,
 * so a year's files line up in a spreadsheet), the header in the page's language. Amounts in major
 * units with two decimals and a dot; UTF-8 with a byte order mark and RFC 4180 records, as the
 * transaction export writes them (`lib/reports/transactions_export.ts`).
 *
 * @module
 */
import { translator } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { isoCurrency } from "@/lib/shared/money.ts";
import { BOM, csvField, formatAmount } from "@/lib/core/csv.ts";
import type { CurrencyFigures, MonthlyReport } from "./monthly.ts";

/** The figures of each currency's columns, in order: the locale key and the value. */
const CURRENCY_COLUMNS: [string, (c: CurrencyFigures) => string][] = [
  ["oneTime", (c) => formatAmount(c.donations.oneTime.amount)],
  ["oneTimeCount", (c) => String(c.donations.oneTime.count)],
  ["monthly", (c) => formatAmount(c.donations.monthly.amount)],
  ["monthlyCount", (c) => String(c.donations.monthly.count)],
  ["donations", (c) => formatAmount(c.donations.total.amount)],
  ["refundsOneTime", (c) => formatAmount(c.refunds.oneTime.amount)],
  ["refundsMonthly", (c) => formatAmount(c.refunds.monthly.amount)],
  ["refundCount", (c) => String(c.refunds.total.count)],
  ["net", (c) => formatAmount(c.net.total)],
  ["newMonthly", (c) => String(c.newMonthly.count)],
  ["newMonthlyAmount", (c) => formatAmount(c.newMonthly.amount)],
  ["cancelledMonthly", (c) => String(c.cancelledMonthly.count)],
  ["cancelledMonthlyAmount", (c) => formatAmount(c.cancelledMonthly.amount)],
];

const CURRENCIES = [1, 2] as const;

/** The header row's cells in `lang`. */
export function reportCsvHeader(lang: Lang): string[] {
  const t = translator(lang);
  return [
    t("reports.csv.month"),
    ...CURRENCIES.flatMap((currency) =>
      CURRENCY_COLUMNS.map(([key]) => t(`reports.csv.${key}`, { currency: isoCurrency(currency) }))
    ),
    t("reports.csv.donors"),
    t("reports.csv.failedOneTime"),
    t("reports.csv.failedMonthly"),
  ];
}

/**
 * The whole file: a byte order mark, the header, a row per month. Every cell is a month, a count
 * or an amount (never text a person typed), and still goes through {@link csvField}.
 *
 * @example
 * ```ts
 * reportCsv(report, "en").split("\r\n")[1].startsWith("2026-01,"); // true
 * ```
 */
export function reportCsv(report: MonthlyReport, lang: Lang): string {
  const rows = report.months.map((month) => [
    month.month,
    ...CURRENCIES.flatMap((currency) => {
      const money = month.money.find((m) => m.currency === currency);
      return CURRENCY_COLUMNS.map(([, cell]) => money ? cell(money) : cell(EMPTY[currency - 1]));
    }),
    String(month.donors),
    String(month.failedCharges.oneTime),
    String(month.failedCharges.monthly),
  ]);
  const record = (cells: string[]) => cells.map((cell) => csvField(cell, true)).join(",") + "\r\n";
  return BOM + [reportCsvHeader(lang), ...rows].map(record).join("");
}

const none = () => ({ amount: 0, count: 0 });
const EMPTY: CurrencyFigures[] = CURRENCIES.map((currency) => ({
  currency,
  donations: { oneTime: none(), monthly: none(), total: none() },
  refunds: { oneTime: none(), monthly: none(), total: none() },
  net: { oneTime: 0, monthly: 0, total: 0 },
  newMonthly: none(),
  cancelledMonthly: none(),
}));

/** `monthly-report-2026-01-2026-12.csv`. */
export const reportFileName = (report: MonthlyReport) => `monthly-report-${report.from}-${report.to}.csv`;
