/**
 * The daily totals chart as the admin page draws it (`DailyTotalsChart.tsx` over `chartModel`),
 * rendered to a string: an accessible SVG image in every language, a panel per currency, no
 * scripts or inline styles, colours with enough contrast, hostile texts kept as text, the empty
 * state.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { daysOf } from "@/tests/helpers/daily_totals.ts";
import { textsUnder, translator as serverTranslator } from "@/lib/core/i18n.ts";
import type { DailyTotalsAnswer, DayTotals } from "@/lib/shared/daily_totals.ts";
import { type Lang, LANGUAGES } from "@/lib/shared/languages.ts";
import type { CurrencyCode } from "@/lib/shared/money.ts";
import { type Translate, translator } from "@/islands/shared/texts.ts";
import { chartModel } from "./daily_totals_chart.ts";
import { CHART_COLORS, CHART_DESC_ID, CHART_TITLE_ID, DailyTotalsChart } from "./DailyTotalsChart.tsx";

/** The chart's markup, drawn as the admin page does (its texts are the page's `chart.*`). */
function renderChart(
  days: readonly DayTotals[],
  currencies: readonly CurrencyCode[],
  lang: Lang,
  t: Translate = translator(textsUnder(lang, ["chart"])),
): string {
  return renderToString(<DailyTotalsChart model={chartModel(days, currencies, lang, t)} />);
}

const days30 = daysOf(
  [
    { day: "2026-10-24", currency: 1, amount: 1_000, count: 1 },
    { day: "2026-11-01", currency: 1, amount: 12_345, count: 2 },
    { day: "2026-11-05", currency: 2, amount: 2_500, count: 1 },
    { day: "2026-11-22", currency: 1, amount: 40_000, count: 3 },
  ],
  "2026-10-24",
  30,
);

/** Relative luminance and contrast ratio (WCAG 2). */
function contrast(hex: string, against = "#ffffff"): number {
  const lum = (h: string) => {
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16) / 255).map((c) =>
      c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    );
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(hex), lum(against)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}

Deno.test("renderChart: an accessible SVG image without scripts or inline styles, in every language", () => {
  for (const lang of LANGUAGES) {
    for (const [days, currencies] of [[days30, [1, 2]], [daysOf([], "2026-11-01", 30), []]] as const) {
      const svg = renderChart(days, [...currencies], lang);
      assert.match(svg, /^<svg [^>]*role="img"/);
      assert.match(svg, /<\/svg>$/);
      assert.match(svg, /viewBox="0 0 720 \d+"/);
      assert.match(svg, / width="100%"/);
      assert.match(svg, new RegExp(`aria-labelledby="${CHART_TITLE_ID} ${CHART_DESC_ID}"`));
      const title = serverTranslator(lang)("chart.title");
      assert.ok(svg.includes(`<title id="${CHART_TITLE_ID}">${title}</title>`), `${lang} title`);
      assert.match(svg, new RegExp(`<desc id="${CHART_DESC_ID}">[^<]+</desc>`));
      assert.ok(!/<script|<style|style=|on\w+=|javascript:|<foreignObject/i.test(svg), lang);
      assert.match(svg, new RegExp(` direction="${lang === "he" ? "rtl" : "ltr"}"`));
    }
  }
  const svg = renderChart(days30, [1, 2], "en");
  for (const color of Object.values(CHART_COLORS.bars)) {
    assert.ok(svg.includes(`fill="${color}"`));
    assert.ok(contrast(color) >= 3, `bar ${color}: ${contrast(color)}`);
  }
  assert.ok(contrast(CHART_COLORS.text) >= 4.5);
  assert.ok(contrast(CHART_COLORS.axis) >= 3);
  // Every fill in the markup is one of these colours (or none).
  const fills = new Set([...svg.matchAll(/fill="([^"]+)"/g)].map((m) => m[1]));
  for (const fill of fills) {
    assert.ok(fill === "none" || contrast(fill) >= 3, fill);
    if ([...svg.matchAll(/<text [^>]*fill="([^"]+)"/g)].some((m) => m[1] === fill)) {
      assert.ok(contrast(fill) >= 4.5, `text ${fill}`);
    }
  }
});

Deno.test("renderChart escapes what it is given: hostile texts stay text", () => {
  const hostile = `</title><script>alert(1)</script><text style="x" onload="alert(2)">&amp;"'`;
  const t = (key: string) => `${hostile}${key}`;
  const svg = renderChart(days30, [1, 2], "en", t);
  assert.ok(!svg.includes("<script"), svg.slice(0, 300));
  const count = (re: RegExp) => [...svg.matchAll(re)].length;
  assert.equal(count(/<\/title>/g), count(/<title[ >]/g), "no title is closed early");
  assert.match(svg, new RegExp(`<title id="${CHART_TITLE_ID}">[^<]*&lt;/title>&lt;script>[^<]*</title>`));
  assert.ok(!/<text style|style="x"|onload="/.test(svg));
  // Only the elements the chart draws.
  const tags = new Set([...svg.matchAll(/<([a-z]+)/g)].map((m) => m[1]));
  assert.deepEqual([...tags].sort(), ["desc", "g", "line", "rect", "svg", "text", "title"]);
});

/**
 * An answer of `GET /api/transaction/daily-totals` (30 days, both currencies), as the admin page
 * gets it and draws it. The chart is drawn from the answer alone, which carries no donor data.
 */
const answer: DailyTotalsAnswer = {
  from: "2026-10-24",
  to: "2026-11-22",
  timeZone: "Asia/Jerusalem",
  currencies: [1, 2],
  days: daysOf(
    [
      { day: "2026-10-24", currency: 1, amount: 10_000, count: 1 },
      { day: "2026-10-24", currency: 2, amount: 550, count: 1 },
      { day: "2026-11-10", currency: 1, amount: 4_000, count: 2 },
      { day: "2026-11-16", currency: 2, amount: 123_456, count: 1 },
      { day: "2026-11-21", currency: 1, amount: 40_000, count: 1 },
      { day: "2026-11-22", currency: 1, amount: 2_500, count: 1 },
      { day: "2026-11-22", currency: 2, amount: 1, count: 1 },
    ],
    "2026-10-24",
    30,
  ),
};

Deno.test("the chart of an answer: an SVG image per currency panel, translated, no scripts or styles", () => {
  for (const lang of ["en", "he", "ru", "pt", "es"] as const) {
    const svg = renderChart(answer.days, answer.currencies, lang);
    assert.match(svg, /^<svg [^>]*role="img"[^>]*>/);
    assert.match(svg, /aria-labelledby="([\w-]+) ([\w-]+)"/);
    const [, titleId, descId] = svg.match(/aria-labelledby="([\w-]+) ([\w-]+)"/)!;
    assert.ok(svg.includes(`<title id="${titleId}">${serverTranslator(lang)("chart.title")}</title>`), lang);
    assert.match(svg, new RegExp(`<desc id="${descId}">[^<]+</desc>`));
    assert.ok(!/<script|<style|style=|\son\w+=|javascript:/i.test(svg), lang);
    assert.equal([...svg.matchAll(/class="chart-panel"/g)].length, 2, "a panel per currency");
    assert.match(svg, new RegExp(`direction="${lang === "he" ? "rtl" : "ltr"}"`));
    assert.ok(!svg.includes("<b>Dana"), "no donor data in the chart");
  }
});

Deno.test("the chart of a window without donations says so, in the page's language", () => {
  const empty: DailyTotalsAnswer = {
    from: "2026-11-09",
    to: "2026-11-22",
    timeZone: "Asia/Jerusalem",
    currencies: [],
    days: daysOf([], "2026-11-09", 14),
  };
  const svg = renderChart(empty.days, empty.currencies, "ru");
  assert.equal([...svg.matchAll(/class="chart-panel"/g)].length, 0);
  assert.match(svg, /class="chart-empty"/);
  const format = (date: string) =>
    new Intl.DateTimeFormat("ru", { dateStyle: "medium", timeZone: "UTC" }).format(
      new Date(`${date}T00:00:00Z`),
    );
  const text = serverTranslator("ru")("chart.empty", { from: format(empty.from), to: format(empty.to) });
  assert.ok(svg.includes(`>${text}</text>`), svg);
  assert.ok(!/<script|style=/.test(svg));
});
