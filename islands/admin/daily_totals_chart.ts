/**
 * The daily totals chart's layout, in the browser and on the server alike: from the days of
 * `GET /api/transaction/daily-totals`, one panel per currency (amounts in two currencies share no
 * axis) with its money lines, a bar per day and the date labels, in viewBox units; or one panel
 * saying there were no donations. `DailyTotalsChart.tsx` draws it as SVG. Texts come from the
 * locales' `chart.*` keys, which the page hands to the island (`islands/shared/texts.ts`).
 *
 * @module
 */
import type { DayTotals } from "@/lib/shared/daily_totals.ts";
import { formatCalendarDay } from "@/lib/shared/dates.ts";
import { CHART_WIDTHS, fitAxisLabels, wrapText } from "@/lib/shared/axis_labels.ts";
import { dirOf, type Lang } from "@/lib/shared/languages.ts";
import { type CurrencyCode, formatMoney } from "@/lib/shared/money.ts";
import type { Translate } from "@/islands/shared/texts.ts";

/**
 * Round y-axis values (minor units) from 0 to at least `max`: 3 to 5 of them, a step of 1, 2 or 5
 * times a power of ten, never below one minor unit.
 *
 * @example
 * ```ts
 * niceTicks(4_000); // [0, 1000, 2000, 3000, 4000]
 * niceTicks(9_000); // [0, 5000, 10000]
 * niceTicks(0); // [0, 1, 2, 3, 4]
 * ```
 */
export function niceTicks(max: number): number[] {
  const top = Math.max(4, max);
  const raw = top / 4;
  let magnitude = 10 ** Math.floor(Math.log10(raw));
  if (magnitude * 10 <= raw) magnitude *= 10; // log10 of a power of ten may round down
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  const count = Math.ceil(top / step - 1e-9);
  return Array.from({ length: count + 1 }, (_, i) => Math.round(i * step));
}

/** A bar of the chart: one day in one currency. */
export interface ChartBar {
  x: number;
  y: number;
  width: number;
  height: number;
  /** What the bar shows, for a tooltip. */
  label: string;
}

/** One panel: a currency's days on its own axis. */
export interface ChartPanel {
  currency: CurrencyCode;
  /** Offset of the panel from the top. */
  top: number;
  heading: string;
  /** The heading as drawn: on as many lines as the plot's width needs (a phone: two). */
  headingLines: string[];
  /** Horizontal line positions (within the panel) and the money they mark. */
  ticks: { y: number; label: string }[];
  bars: ChartBar[];
  /** Date labels under the axis. */
  dates: { x: number; label: string }[];
}

/** Everything the SVG shows, laid out in viewBox units. */
export interface ChartModel {
  width: number;
  height: number;
  rtl: boolean;
  title: string;
  description: string;
  plot: { left: number; right: number; top: number; bottom: number };
  /** Where the money labels hang (the axis side: left, or right in right-to-left languages). */
  tickX: number;
  panels: ChartPanel[];
  /** Set when there are no donations: the one panel's message. */
  empty: string | null;
}

/**
 * The chart's size in viewBox units. The browser lays it out at its box's width in CSS pixels
 * (`chartWidth` of `lib/shared/axis_labels.ts`), so a unit is a pixel and its type keeps its size on a phone; 720 is the
 * width of the server's waiting state, which scales to its box.
 */
export const CHART = {
  width: CHART_WIDTHS.default,
  panelHeight: 232,
  emptyHeight: 96,
  /** Room for the money labels on the axis side, and the margin on the other. */
  axis: 96,
  margin: 12,
  /** Within a panel: heading, plot, date labels. */
  plotTop: 40,
  plotHeight: 150,
  /** The date labels' font size. */
  dateSize: 12,
  /** The panel heading's font size and line height (bold). */
  headingSize: 14,
  headingLine: 18,
} as const;

/** Money for an axis label: without the cents when every label is whole. */
function tickFormatter(ticks: number[], currency: CurrencyCode, lang: Lang): (minor: number) => string {
  const whole = ticks.every((tick) => tick % 100 === 0);
  return (minor) => {
    const text = formatMoney(minor, currency, lang);
    return whole ? text.replace(/[.,]00(?=\D*$)/, "") : text;
  };
}

/**
 * Lays the chart out: one panel per currency present, a bar per day with donations, 3 to 5 money
 * lines, a date under today and every 7th day before it, or every day when they have room
 * (`fitAxisLabels`: fewer dates, never smaller type, in every language). In
 * right-to-left languages time runs right to left and the money axis is on the right.
 *
 * @example
 * ```ts
 * const t = translator(texts); // the page's texts, `chart.*` among them
 * const model = chartModel(days, [1], "he", t); // model.panels[0].bars[0].x is near the right edge
 * const phone = chartModel(days, [1], "he", t, 358); // laid out 358 units wide
 * ```
 */
export function chartModel(
  days: readonly DayTotals[],
  currencies: readonly CurrencyCode[],
  lang: Lang,
  t: Translate,
  width: number = CHART.width,
): ChartModel {
  const rtl = dirOf(lang) === "rtl";
  const { axis, margin } = CHART;
  const left = rtl ? margin : axis;
  const right = rtl ? width - axis : width - margin;
  const sumOf = (currency: CurrencyCode) => {
    const totals = days.flatMap((day) => day.totals.filter((total) => total.currency === currency));
    return {
      amount: totals.reduce((acc, total) => acc + total.amount, 0),
      count: totals.reduce((acc, total) => acc + total.count, 0),
    };
  };
  const headings = currencies.map((currency) =>
    t("chart.panel", {
      currency: t(currency === 1 ? "chart.currency.nis" : "chart.currency.usd"),
      total: formatMoney(sumOf(currency).amount, currency, lang),
      count: sumOf(currency).count,
    })
  );
  // A heading longer than the plot is wide (a phone) takes more lines, and the plot moves down.
  const headingLines = headings.map((heading) => wrapText(heading, right - left, CHART.headingSize * 1.06));
  const extra = (Math.max(1, ...headingLines.map((lines) => lines.length)) - 1) * CHART.headingLine;
  const panelHeight = CHART.panelHeight + extra;
  const plotTop = CHART.plotTop + extra;
  const plot = { left, right, top: plotTop, bottom: plotTop + CHART.plotHeight };
  const first = days[0]?.date ?? "";
  const last = days[days.length - 1]?.date ?? "";
  // The days are the museum's already (the API's): written as the calendar days they are.
  const dateText = (date: string, options?: Intl.DateTimeFormatOptions) =>
    formatCalendarDay(date, lang, options) ?? date;
  const range = { from: dateText(first), to: dateText(last) };
  const title = t("chart.title");
  const description = t("chart.description", range);
  const base = { width, rtl, title, plot, tickX: rtl ? right + 8 : left - 8 };

  if (currencies.length === 0) {
    const empty = t("chart.empty", range);
    return { ...base, height: CHART.emptyHeight, description: empty, panels: [], empty };
  }

  const slot = (right - left) / Math.max(1, days.length);
  const barWidth = Math.max(1, slot * 0.7);
  /** The left edge of day `i`'s slot: time runs left to right, or right to left. */
  const slotX = (i: number) => (rtl ? right - (i + 1) * slot : left + i * slot);
  // Every day if the dates have room, else today and every 7th day before it (the same weekday).
  const dates = fitAxisLabels(
    days.map((_, i) => slotX(i) + slot / 2),
    (i) => [dateText(days[i].date, { month: "short", day: "numeric" })],
    { fontSize: CHART.dateSize, steps: [1, 7, 14, 28, 56, 91], bounds: [0, width] },
  ).map((date) => ({ x: date.x, label: date.lines[0] }));

  const panels = currencies.map((currency, p): ChartPanel => {
    const of = (day: DayTotals) => day.totals.find((total) => total.currency === currency);
    const max = Math.max(0, ...days.map((day) => of(day)?.amount ?? 0));
    const ticks = niceTicks(max);
    const top = ticks[ticks.length - 1];
    const money = tickFormatter(ticks, currency, lang);
    const yOf = (minor: number) => plot.bottom - (minor / top) * CHART.plotHeight;
    const bars = days.flatMap((day, i) => {
      const total = of(day);
      if (!total) return [];
      const height = Math.max(total.amount > 0 ? 1 : 0, (total.amount / top) * CHART.plotHeight);
      return [{
        x: slotX(i) + (slot - barWidth) / 2,
        y: plot.bottom - height,
        width: barWidth,
        height,
        label: t("chart.bar", {
          date: dateText(day.date),
          amount: formatMoney(total.amount, currency, lang),
          count: total.count,
        }),
      }];
    });
    return {
      currency,
      top: p * panelHeight,
      heading: headings[p],
      headingLines: headingLines[p],
      ticks: ticks.map((tick) => ({ y: yOf(tick), label: money(tick) })),
      bars,
      dates,
    };
  });
  return {
    ...base,
    height: panels.length * panelHeight,
    description: `${description} ${panels.map((panel) => panel.heading).join(". ")}.`,
    panels,
    empty: null,
  };
}

/**
 * The chart's waiting state, from the layout of an empty two-currency chart (`chartModel(days,
 * [1, 2], …)`): the same size and date labels, `loading` in place of the first panel's heading,
 * the axis line without money, no bars. It is exactly the chart's size (two panels, the usual
 * case), and its text is in the chart's own sizes, so the browser has those fonts ready when the
 * chart comes.
 *
 * @example
 * ```ts
 * const model = skeletonModel(chartModel(fillDays([], first, 30), [1, 2], "en", t), "Loading the chart…");
 * ```
 */
export function skeletonModel(model: ChartModel, loading: string): ChartModel {
  return {
    ...model,
    panels: model.panels.map((panel, i) => ({
      ...panel,
      heading: i === 0 ? loading : "",
      headingLines: i === 0 ? [loading] : [],
      // The axis line alone, without money.
      ticks: panel.ticks.slice(0, 1).map((tick) => ({ ...tick, label: "" })),
      bars: [],
    })),
  };
}
