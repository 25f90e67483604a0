/**
 * The monthly report's chart, drawn on the server as SVG text (`GET /api/reports/monthly.svg`), so
 * the back office ships no chart code for it: one panel per currency (two currencies share no
 * axis), per month a bar of donations (one-time below, monthly above) and beside it a bar of
 * refunds, with round money lines and the month names in the page's language (as many as have
 * room, `fitAxisLabels`). Right-to-left
 * languages run time from right to left with the money axis on the right. The page asks for it
 * at its box's width (`width`, CSS pixels), so its type keeps its size on a phone: a heading or
 * legend that does not fit takes more lines (`wrapText`), never smaller type.
 *
 * Every text is escaped; only presentation attributes style it (the CSP allows no inline styles),
 * colours of at least 3:1 against white for bars and 4.5:1 for text. The image is one
 * `role="img"` named by its `<title>` and `<desc>` (the totals per currency); the page shows the
 * same figures as a table.
 *
 * @module
 */
import { translator } from "@/lib/core/i18n.ts";
import { CHART_WIDTHS, estimateTextWidth, fitAxisLabels, wrapText } from "@/lib/shared/axis_labels.ts";
import { formatCalendarMonth } from "@/lib/shared/dates.ts";
import { dirOf, type Lang } from "@/lib/shared/languages.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import type { MonthlyReport } from "./monthly.ts";

/** Ids of the chart's title and description (one chart per page). */
export const REPORT_CHART_IDS = { title: "report-chart-title", desc: "report-chart-desc" } as const;

/** Colours: one-time and monthly donations, refunds, text, axis and grid. */
export const REPORT_CHART_COLORS = {
  oneTime: "#1d4ed8",
  monthly: "#047857",
  refunds: "#b91c1c",
  text: "#1f2937",
  axis: "#4b5563",
  grid: "#d1d5db",
} as const;

const SIZE = {
  line: 18,
  panel: 250,
  axis: 100,
  margin: 12,
  plotTop: 56,
  plotHeight: 150,
  font: 13,
} as const;
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

/** Text for SVG markup: `&`, `<`, `>` and quotes escaped. */
export const escapeXml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

const r = (n: number) => Math.round(n * 10) / 10;

/** 3 to 5 round money lines (minor units) from 0 to at least `max`. */
export function reportTicks(max: number): number[] {
  const top = Math.max(400, max);
  const raw = top / 4;
  let magnitude = 10 ** Math.floor(Math.log10(raw));
  if (magnitude * 10 <= raw) magnitude *= 10;
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  return Array.from({ length: Math.ceil(top / step - 1e-9) + 1 }, (_, i) => Math.round(i * step));
}

/** A legend entry as placed: its colour, its word, and its distance from the plot's start edge. */
interface LegendEntry {
  color: string;
  word: string;
  offset: number;
}

/**
 * The legend's entries in rows of at most `width`: a swatch, its word and a gap each, as many to a
 * row as fit (on a laptop, one row at 150-unit steps as before).
 */
function legendRows(entries: string[][], width: number): LegendEntry[][] {
  const rows: LegendEntry[][] = [[]];
  let offset = 0;
  for (const [color, word] of entries) {
    const room = Math.max(150, 18 + estimateTextWidth(word, SIZE.font) + 24);
    if (offset > 0 && offset + room - 24 > width) {
      rows.push([]);
      offset = 0;
    }
    rows.at(-1)!.push({ color, word, offset });
    offset += room;
  }
  return rows;
}

/** The month `YYYY-MM` in `lang`: its name and year ("January 2026"), or a part of that. */
function monthLabel(month: string, lang: Lang, options: Intl.DateTimeFormatOptions): string {
  return formatCalendarMonth(month, lang, options) ?? month;
}
const LONG = { month: "long", year: "numeric" } as const;

/**
 * The chart of `report` in `lang`, as SVG markup.
 *
 * @example
 * ```ts
 * reportChartSvg(report, "he").startsWith("<svg"); // true
 * reportChartSvg(report, "he", 358); // laid out for a phone's 358 px box
 * ```
 */
export function reportChartSvg(
  report: MonthlyReport,
  lang: Lang,
  width: number = CHART_WIDTHS.default,
): string {
  const t = translator(lang);
  const rtl = dirOf(lang) === "rtl";
  const { axis, margin, plotHeight } = SIZE;
  const left = rtl ? margin : axis;
  const right = rtl ? width - axis : width - margin;
  const range = { from: monthLabel(report.from, lang, LONG), to: monthLabel(report.to, lang, LONG) };
  const title = t("reports.chart.title");
  const out: string[] = [];
  const text = (x: number, y: number, content: string, extra = "") =>
    out.push(
      `<text x="${r(x)}" y="${r(y)}" fill="${REPORT_CHART_COLORS.text}"${extra}>${escapeXml(content)}</text>`,
    );
  const rect = (x: number, y: number, w: number, h: number, fill: string, label: string) =>
    out.push(
      `<rect x="${r(x)}" y="${r(y)}" width="${r(w)}" height="${r(h)}" fill="${fill}"><title>${
        escapeXml(label)
      }</title></rect>`,
    );
  let description: string;
  let height: number;
  if (report.currencies.length === 0) {
    description = t("reports.chart.empty", range);
    const lines = wrapText(description, width - 2 * margin, SIZE.font);
    height = 62 + lines.length * SIZE.line;
    lines.forEach((line, n) => text(width / 2, 44 + n * SIZE.line, line, ` text-anchor="middle"`));
  } else {
    const months = report.months;
    const slot = (right - left) / months.length;
    const bar = Math.max(1, (slot * 0.72) / 2);
    const slotX = (i: number) => (rtl ? right - (i + 1) * slot : left + i * slot);
    // The month's short name under its bars, its year a line below where the year changes; as
    // many months as have room in the language (fewer labels, never smaller type).
    const year = (i: number) => months[i].month.slice(0, 4);
    const axisLabels = fitAxisLabels(
      months.map((_, i) => slotX(i) + slot / 2),
      (i, before) => [
        monthLabel(months[i].month, lang, { month: "short" }),
        ...(before === undefined || year(before) !== year(i)
          ? [monthLabel(months[i].month, lang, { year: "numeric" })]
          : []),
      ],
      { fontSize: SIZE.font, steps: [1, 2, 3, 4, 6, 12], bounds: [0, width] },
    );
    const headings = report.currencies.map((currency) => {
      const money = (minor: number) => formatMoney(minor, currency, lang);
      const total = report.totals.find((c) => c.currency === currency)!;
      return t("reports.chart.panel", {
        currency: t(currency === 1 ? "chart.currency.nis" : "chart.currency.usd"),
        donations: money(total.donations.total.amount),
        refunds: money(total.refunds.total.amount),
        net: money(total.net.total),
      });
    });
    // Headings and the legend on as many lines as the plot's width needs; the plot moves down.
    const headingLines = headings.map((heading) => wrapText(heading, right - left, SIZE.font * 1.08));
    const legend = legendRows([
      [REPORT_CHART_COLORS.oneTime, t("reports.chart.oneTime")],
      [REPORT_CHART_COLORS.monthly, t("reports.chart.monthly")],
      [REPORT_CHART_COLORS.refunds, t("reports.chart.refunds")],
    ], right - left);
    const extra = (Math.max(...headingLines.map((lines) => lines.length)) - 1 + legend.length - 1) *
      SIZE.line;
    const panelHeight = SIZE.panel + extra;
    const plotTop = SIZE.plotTop + extra;
    report.currencies.forEach((currency, p) => {
      const top = p * panelHeight;
      const money = (minor: number) => formatMoney(minor, currency, lang);
      const at = (i: number) => months[i].money.find((m) => m.currency === currency)!;
      const max = Math.max(
        0,
        ...months.map((_, i) => Math.max(at(i).donations.total.amount, at(i).refunds.total.amount)),
      );
      const ticks = reportTicks(max);
      const yOf = (minor: number) =>
        top + plotTop + plotHeight - (minor / ticks[ticks.length - 1]) * plotHeight;
      // A text per line: each its own paragraph, right to left in Hebrew.
      headingLines[p].forEach((line, n) =>
        text(rtl ? right : left, top + 20 + n * SIZE.line, line, ` text-anchor="start" font-weight="bold"`)
      );
      // The legend: three swatches with their words, under the heading, in rows that fit.
      const legendTop = top + 30 + (headingLines[p].length - 1) * SIZE.line;
      legend.forEach((row, n) =>
        row.forEach(({ color, word, offset }) => {
          const x = rtl ? right - offset : left + offset;
          const y = legendTop + n * SIZE.line;
          out.push(`<rect x="${r(rtl ? x - 12 : x)}" y="${y}" width="12" height="12" fill="${color}"/>`);
          text(rtl ? x - 18 : x + 18, y + 11, word, ` text-anchor="start"`);
        })
      );
      for (const tick of ticks) {
        const y = yOf(tick);
        out.push(
          `<line x1="${left}" x2="${right}" y1="${r(y)}" y2="${r(y)}" stroke="${
            tick === 0 ? REPORT_CHART_COLORS.axis : REPORT_CHART_COLORS.grid
          }" stroke-width="1"/>`,
        );
        text(rtl ? right + 8 : left - 8, y + 4, money(tick), ` text-anchor="end"`);
      }
      months.forEach((month, i) => {
        const c = at(i);
        const name = monthLabel(month.month, lang, LONG);
        const x0 = slotX(i) + (slot - 2 * bar) / 2;
        const [donationsX, refundsX] = rtl ? [x0 + bar, x0] : [x0, x0 + bar];
        const oneTimeY = yOf(c.donations.oneTime.amount);
        const base = yOf(0);
        if (c.donations.oneTime.amount > 0) {
          rect(
            donationsX,
            oneTimeY,
            bar,
            base - oneTimeY,
            REPORT_CHART_COLORS.oneTime,
            t("reports.chart.bar", {
              month: name,
              what: t("reports.chart.oneTime"),
              amount: money(c.donations.oneTime.amount),
            }),
          );
        }
        if (c.donations.monthly.amount > 0) {
          const h = base - yOf(c.donations.monthly.amount);
          rect(
            donationsX,
            oneTimeY - h,
            bar,
            h,
            REPORT_CHART_COLORS.monthly,
            t("reports.chart.bar", {
              month: name,
              what: t("reports.chart.monthly"),
              amount: money(c.donations.monthly.amount),
            }),
          );
        }
        if (c.refunds.total.amount > 0) {
          const y = yOf(c.refunds.total.amount);
          rect(
            refundsX,
            y,
            bar,
            base - y,
            REPORT_CHART_COLORS.refunds,
            t("reports.chart.bar", {
              month: name,
              what: t("reports.chart.refunds"),
              amount: money(c.refunds.total.amount),
            }),
          );
        }
      });
      for (const label of axisLabels) {
        label.lines.forEach((line, n) => text(label.x, yOf(0) + 18 + 18 * n, line, ` text-anchor="middle"`));
      }
    });
    height = report.currencies.length * panelHeight;
    description = `${t("reports.chart.description", range)} ${headings.join(". ")}.`;
  }
  const { title: titleId, desc: descId } = REPORT_CHART_IDS;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="100%" ` +
    `role="img" aria-labelledby="${titleId} ${descId}" class="report-chart" direction="${
      rtl ? "rtl" : "ltr"
    }" ` +
    `font-family="${FONT}" font-size="${SIZE.font}"><title id="${titleId}">${escapeXml(title)}</title>` +
    `<desc id="${descId}">${escapeXml(description)}</desc>${out.join("")}</svg>`;
}
