/**
 * Daily totals of successful donations for the back office: every UTC day of a window ending
 * today, per currency, and the same as an SVG chart rendered on the server (one panel per
 * currency, since amounts in two currencies share no axis). Storage sums the days
 * (`transactions.dailyTotals`); this module fills in the empty days and lays the chart out; the
 * markup is `components/DailyTotalsChart.tsx`, rendered to a string with preact-render-to-string
 * (so every text in it is escaped).
 *
 * @module
 */
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { DailyTotalsChart } from "../components/DailyTotalsChart.tsx";
import { type TFunction, translator } from "./i18n.ts";
import { dirOf, type Lang } from "./shared/languages.ts";
import { type CurrencyCode, formatMoney } from "./shared/money.ts";
import type { DailyTotal, Store } from "./storage/types.ts";

/** One currency's sum on one day. */
export interface CurrencyTotal {
  currency: CurrencyCode;
  /** Minor units. */
  amount: number;
  count: number;
}

/** One UTC day of the window: its totals per currency (ascending), empty when none. */
export interface DayTotals {
  /** `YYYY-MM-DD`. */
  date: string;
  totals: CurrencyTotal[];
}

/** What `GET /api/transaction/daily-totals` answers. */
export interface DailyTotalsAnswer {
  from: string;
  to: string;
  timeZone: "UTC";
  /** The currencies with donations in the window, ascending. */
  currencies: CurrencyCode[];
  /** Every day of the window, oldest first. */
  days: DayTotals[];
  /** The SVG chart (markup). */
  chart: string;
}

const DAY_MS = 86_400_000;

/**
 * The window of `days` UTC days ending on `now`'s day: its first and last day, and the instants
 * storage sums between (`from` inclusive, `to` exclusive: the start of tomorrow).
 *
 * @example
 * ```ts
 * totalsWindow(7, new Date("2026-11-22T15:00:00Z"));
 * // { first: "2026-11-16", last: "2026-11-22",
 * //   from: "2026-11-16T00:00:00.000Z", to: "2026-11-23T00:00:00.000Z" }
 * ```
 */
export function totalsWindow(
  days: number,
  now: Date,
): { first: string; last: string; from: string; to: string } {
  if (!Number.isSafeInteger(days) || days < 1) {
    throw new RangeError(`days must be a whole number >= 1: ${days}`);
  }
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const start = today - (days - 1) * DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    first: iso(start).slice(0, 10),
    last: iso(today).slice(0, 10),
    from: iso(start),
    to: iso(today + DAY_MS),
  };
}

/**
 * Every day from `first` on (`days` of them, oldest first) with its totals, ascending by
 * currency; days storage did not answer are empty.
 *
 * @example
 * ```ts
 * fillDays([{ day: "2026-11-21", currency: 1, amount: 500, count: 1 }], "2026-11-20", 3);
 * // [{ date: "2026-11-20", totals: [] },
 * //  { date: "2026-11-21", totals: [{ currency: 1, amount: 500, count: 1 }] },
 * //  { date: "2026-11-22", totals: [] }]
 * ```
 */
export function fillDays(entries: readonly DailyTotal[], first: string, days: number): DayTotals[] {
  const start = Date.parse(`${first}T00:00:00Z`);
  const out: DayTotals[] = Array.from({ length: days }, (_, i) => ({
    date: new Date(start + i * DAY_MS).toISOString().slice(0, 10),
    totals: [],
  }));
  const byDate = new Map(out.map((day) => [day.date, day]));
  for (const entry of entries) {
    byDate.get(entry.day)?.totals.push({
      currency: entry.currency,
      amount: entry.amount,
      count: entry.count,
    });
  }
  for (const day of out) day.totals.sort((a, b) => a.currency - b.currency);
  return out;
}

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

/** The chart's size in viewBox units; it scales to its container's width. */
export const CHART = {
  width: 720,
  panelHeight: 232,
  emptyHeight: 96,
  /** Room for the money labels on the axis side, and the margin on the other. */
  axis: 96,
  margin: 12,
  /** Within a panel: heading, plot, date labels. */
  plotTop: 40,
  plotHeight: 150,
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
 * lines, a date under today and every 7th day before it (every day in a week or less). In
 * right-to-left languages time runs right to left and the money axis is on the right.
 *
 * @example
 * ```ts
 * const model = chartModel(days, [1], "he"); // model.panels[0].bars[0].x is near the right edge
 * ```
 */
export function chartModel(
  days: readonly DayTotals[],
  currencies: readonly CurrencyCode[],
  lang: Lang,
  t: TFunction = translator(lang),
): ChartModel {
  const rtl = dirOf(lang) === "rtl";
  const { width, axis, margin } = CHART;
  const left = rtl ? margin : axis;
  const right = rtl ? width - axis : width - margin;
  const plot = { left, right, top: CHART.plotTop, bottom: CHART.plotTop + CHART.plotHeight };
  const first = days[0]?.date ?? "";
  const last = days[days.length - 1]?.date ?? "";
  const dateText = (date: string, options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(lang, { ...options, timeZone: "UTC" }).format(new Date(`${date}T00:00:00Z`));
  const range = {
    from: dateText(first, { dateStyle: "medium" }),
    to: dateText(last, { dateStyle: "medium" }),
  };
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
  const labelEvery = days.length <= 7 ? 1 : 7;
  const dates = days.flatMap((day, i) =>
    (days.length - 1 - i) % labelEvery === 0
      ? [{ x: slotX(i) + slot / 2, label: dateText(day.date, { month: "short", day: "numeric" }) }]
      : []
  );

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
          date: dateText(day.date, { dateStyle: "medium" }),
          amount: formatMoney(total.amount, currency, lang),
          count: total.count,
        }),
      }];
    });
    const sum = days.reduce((acc, day) => acc + (of(day)?.amount ?? 0), 0);
    const count = days.reduce((acc, day) => acc + (of(day)?.count ?? 0), 0);
    return {
      currency,
      top: p * CHART.panelHeight,
      heading: t("chart.panel", {
        currency: t(currency === 1 ? "chart.currency.nis" : "chart.currency.usd"),
        total: formatMoney(sum, currency, lang),
        count,
      }),
      ticks: ticks.map((tick) => ({ y: yOf(tick), label: money(tick) })),
      bars,
      dates,
    };
  });
  return {
    ...base,
    height: panels.length * CHART.panelHeight,
    description: `${description} ${panels.map((panel) => panel.heading).join(". ")}.`,
    panels,
    empty: null,
  };
}

/**
 * The chart as SVG markup.
 *
 * @example
 * ```ts
 * renderChart(days, [1, 2], "en"); // '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 720 464" …'
 * ```
 */
export function renderChart(
  days: readonly DayTotals[],
  currencies: readonly CurrencyCode[],
  lang: Lang,
  t: TFunction = translator(lang),
): string {
  return renderToString(h(DailyTotalsChart, { model: chartModel(days, currencies, lang, t) }));
}

/**
 * The chart's waiting state, drawn on the server with the page: the chart's frame and date labels
 * for the `days` UTC days ending `now`, `loading` in place of the first panel's heading, no money
 * and no bars. It is exactly the chart's size (two panels, the usual case), and its text is in the
 * chart's own sizes, so the browser has those fonts ready when the chart comes. Decorative
 * (`aria-hidden`): the page says `loading` to assistive technology itself.
 *
 * @example
 * ```ts
 * chartSkeleton("en", "Loading the chart…"); // '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 720 464" …'
 * ```
 */
export function chartSkeleton(
  lang: Lang,
  loading: string,
  days = 30,
  now: Date = new Date(),
  t: TFunction = translator(lang),
): string {
  const model = chartModel(fillDays([], totalsWindow(days, now).first, days), [1, 2], lang, t);
  const skeleton: ChartModel = {
    ...model,
    panels: model.panels.map((panel, i) => ({
      ...panel,
      heading: i === 0 ? loading : "",
      // The axis line alone, without money.
      ticks: panel.ticks.slice(0, 1).map((tick) => ({ ...tick, label: "" })),
      bars: [],
    })),
  };
  return renderToString(h(DailyTotalsChart, { model: skeleton, decorative: true }));
}

/**
 * The daily totals of the last `days` UTC days (today included) with their chart.
 *
 * @example
 * ```ts
 * const answer = await dailyTotals(store, { days: 30, lang: "he" });
 * answer.days.length; // 30
 * ```
 */
export async function dailyTotals(
  store: Store,
  query: { days: number; lang: Lang },
  now: Date = new Date(),
): Promise<DailyTotalsAnswer> {
  const window = totalsWindow(query.days, now);
  const entries = await store.transactions.dailyTotals({ from: window.from, to: window.to });
  const days = fillDays(entries, window.first, query.days);
  const currencies = [...new Set(entries.map((entry) => entry.currency))].sort((a, b) => a - b);
  return {
    from: window.first,
    to: window.last,
    timeZone: "UTC",
    currencies,
    days,
    chart: renderChart(days, currencies, query.lang),
  };
}
