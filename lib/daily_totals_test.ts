import assert from "node:assert/strict";
import { CHART_COLORS, CHART_DESC_ID, CHART_TITLE_ID } from "../components/DailyTotalsChart.tsx";
import {
  CHART,
  chartModel,
  chartSkeleton,
  dailyTotals,
  fillDays,
  niceTicks,
  renderChart,
  totalsWindow,
} from "./daily_totals.ts";
import type { TFunction } from "./i18n.ts";
import { translator } from "./i18n.ts";
import { LANGUAGES } from "./shared/languages.ts";
import type { DailyTotal, Store } from "./storage/types.ts";

Deno.test("totalsWindow: UTC days ending today, to the start of tomorrow", () => {
  assert.deepEqual(totalsWindow(7, new Date("2026-11-22T15:00:00Z")), {
    first: "2026-11-16",
    last: "2026-11-22",
    from: "2026-11-16T00:00:00.000Z",
    to: "2026-11-23T00:00:00.000Z",
  });
  assert.deepEqual(totalsWindow(1, new Date("2026-11-22T23:59:59.999Z")), {
    first: "2026-11-22",
    last: "2026-11-22",
    from: "2026-11-22T00:00:00.000Z",
    to: "2026-11-23T00:00:00.000Z",
  });
  // Across a month, a year and a leap day; the local clock never matters.
  assert.deepEqual(totalsWindow(90, new Date("2028-03-01T00:00:00Z")).first, "2027-12-03");
  assert.deepEqual(totalsWindow(2, new Date("2028-03-01T00:00:00+02:00")).first, "2028-02-28");
  assert.throws(() => totalsWindow(0, new Date()), RangeError);
});

Deno.test("fillDays: every day oldest first, totals by currency, nothing outside the window", () => {
  const entries: DailyTotal[] = [
    { day: "2026-11-21", currency: 2, amount: 2500, count: 1 },
    { day: "2026-11-21", currency: 1, amount: 500, count: 2 },
    { day: "2026-11-19", currency: 1, amount: 7, count: 1 },
    { day: "2026-11-23", currency: 1, amount: 9, count: 1 },
  ];
  assert.deepEqual(fillDays(entries, "2026-11-20", 3), [
    { date: "2026-11-20", totals: [] },
    {
      date: "2026-11-21",
      totals: [{ currency: 1, amount: 500, count: 2 }, { currency: 2, amount: 2500, count: 1 }],
    },
    { date: "2026-11-22", totals: [] },
  ]);
  assert.deepEqual(fillDays([], "2026-12-30", 4).map((d) => d.date), [
    "2026-12-30",
    "2026-12-31",
    "2027-01-01",
    "2027-01-02",
  ]);
});

Deno.test("niceTicks: 3 to 5 round values from 0 up to at least the maximum", () => {
  assert.deepEqual(niceTicks(4_000), [0, 1000, 2000, 3000, 4000]);
  assert.deepEqual(niceTicks(9_000), [0, 5000, 10000]);
  assert.deepEqual(niceTicks(0), [0, 1, 2, 3, 4]);
  for (let max = 1; max < 1e12; max = Math.ceil(max * 1.37) + 1) {
    const ticks = niceTicks(max);
    assert.ok(ticks.length >= 3 && ticks.length <= 5, `${max}: ${ticks}`);
    assert.equal(ticks[0], 0);
    assert.ok(ticks[ticks.length - 1] >= max, `${max}: ${ticks}`);
    const step = ticks[1];
    assert.ok(Number.isSafeInteger(step) && step >= 1);
    assert.match(String(step), /^[125]0*$/, `${max}: step ${step}`);
    assert.ok(ticks.every((tick, i) => tick === i * step));
  }
});

const days30 = fillDays(
  [
    { day: "2026-10-24", currency: 1, amount: 1_000, count: 1 },
    { day: "2026-11-01", currency: 1, amount: 12_345, count: 2 },
    { day: "2026-11-05", currency: 2, amount: 2_500, count: 1 },
    { day: "2026-11-22", currency: 1, amount: 40_000, count: 3 },
  ],
  "2026-10-24",
  30,
);

Deno.test("chartModel: a panel per currency; time runs left to right, or right to left in Hebrew", () => {
  const ltr = chartModel(days30, [1, 2], "en");
  assert.equal(ltr.panels.length, 2);
  assert.equal(ltr.height, 2 * CHART.panelHeight);
  const [nis, usd] = ltr.panels;
  assert.deepEqual(nis.bars.length, 3);
  assert.deepEqual(usd.bars.length, 1);
  // Oldest at the left, today at the right; the tallest bar reaches the top money line or near.
  assert.ok(nis.bars[0].x < ltr.plot.left + 25);
  assert.ok(nis.bars[2].x > ltr.plot.right - 25);
  assert.ok(nis.bars[2].height > nis.bars[1].height && nis.bars[1].height > nis.bars[0].height);
  assert.ok(nis.bars.every((b) => b.y + b.height === ltr.plot.bottom));
  assert.deepEqual(nis.ticks.map((t) => t.label), ["₪0", "₪100", "₪200", "₪300", "₪400"]);
  assert.match(nis.heading, /Shekels \(ILS\).*₪533\.45.*6/);
  assert.match(usd.heading, /US dollars \(USD\).*\$25\.00/);
  assert.match(nis.bars[2].label, /Nov 22, 2026.*₪400\.00.*3/);
  // Dates under today and every 7th day before it.
  assert.deepEqual(nis.dates.map((d) => d.label), ["Oct 25", "Nov 1", "Nov 8", "Nov 15", "Nov 22"]);
  assert.ok(nis.dates.every((d, i, all) => i === 0 || d.x > all[i - 1].x));

  const rtl = chartModel(days30, [1, 2], "he");
  assert.ok(rtl.rtl);
  const [heNis] = rtl.panels;
  assert.ok(heNis.bars[0].x > rtl.plot.right - 25, "the oldest day is at the right");
  assert.ok(heNis.bars[2].x < rtl.plot.left + 25, "today is at the left");
  assert.ok(heNis.dates.every((d, i, all) => i === 0 || d.x < all[i - 1].x));
  assert.ok(rtl.tickX > rtl.plot.right, "the money axis is on the right");
  const mirrored = heNis.bars[1].x + heNis.bars[1].width - (CHART.width - nis.bars[1].x);
  assert.ok(Math.abs(mirrored) < 1e-9, "mirrored exactly");

  const week = chartModel(fillDays([], "2026-11-16", 7), [], "en");
  assert.equal(week.panels.length, 0);
  assert.match(week.empty!, /No successful donations from Nov 16, 2026 to Nov 22, 2026/);
  assert.equal(
    chartModel(
      fillDays([{ day: "2026-11-20", currency: 2, amount: 1, count: 1 }], "2026-11-16", 7),
      [2],
      "en",
    )
      .panels[0].dates.length,
    7,
  );
});

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
    for (const [days, currencies] of [[days30, [1, 2]], [fillDays([], "2026-11-01", 30), []]] as const) {
      const svg = renderChart(days, [...currencies], lang);
      assert.match(svg, /^<svg [^>]*role="img"/);
      assert.match(svg, /<\/svg>$/);
      assert.match(svg, /viewBox="0 0 720 \d+"/);
      assert.match(svg, / width="100%"/);
      assert.match(svg, new RegExp(`aria-labelledby="${CHART_TITLE_ID} ${CHART_DESC_ID}"`));
      const title = translator(lang)("chart.title");
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

Deno.test("chartSkeleton: the chart's size and date axis, the loading text, no figures, decorative", () => {
  const now = new Date("2026-11-22T15:00:00Z");
  for (const lang of LANGUAGES) {
    const skeleton = chartSkeleton(lang, "Loading <now>", 30, now);
    const chart = renderChart(fillDays([], "2026-10-24", 30), [1, 2], lang);
    const viewBox = (svg: string) => svg.match(/viewBox="[^"]+"/)?.[0];
    assert.equal(viewBox(skeleton), viewBox(chart), `${lang}: the room of a two-currency chart`);
    assert.match(skeleton, /^<svg [^>]*aria-hidden="true"/);
    assert.ok(
      !/role=|<title|<desc|aria-labelledby|id=/.test(skeleton),
      `${lang}: nothing to announce, no ids`,
    );
    assert.equal(
      [...skeleton.matchAll(/Loading &lt;now>/g)].length,
      1,
      `${lang}: the loading text, escaped, once`,
    );
    assert.ok(!/<rect/.test(skeleton), `${lang}: no bars`);
    assert.ok(!/[₪$]/.test(skeleton), `${lang}: no money`);
    // Both panels' date labels, as the chart writes them.
    const dates = (svg: string) =>
      [...svg.matchAll(/<g class="chart-dates"[^>]*>(.*?)<\/g>/g)].map((m) => m[1]);
    assert.deepEqual(dates(skeleton), dates(chart));
    assert.match(skeleton, new RegExp(` direction="${lang === "he" ? "rtl" : "ltr"}"`));
  }
});

Deno.test("renderChart escapes what it is given: hostile texts stay text", () => {
  const hostile = `</title><script>alert(1)</script><text style="x" onload="alert(2)">&amp;"'`;
  const t = ((key: string) => `${hostile}${key}`) as unknown as TFunction;
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

Deno.test("dailyTotals answers the window's every day, the currencies present and the chart", async () => {
  const asked: { from: string; to: string }[] = [];
  const store = {
    transactions: {
      dailyTotals(range: { from: string; to: string }) {
        asked.push(range);
        return Promise.resolve<DailyTotal[]>([
          { day: "2026-11-20", currency: 2, amount: 2500, count: 1 },
          { day: "2026-11-22", currency: 2, amount: 100, count: 1 },
        ]);
      },
    },
  } as unknown as Store;
  const answer = await dailyTotals(store, { days: 3, lang: "es" }, new Date("2026-11-22T10:00:00Z"));
  assert.deepEqual(asked, [{ from: "2026-11-20T00:00:00.000Z", to: "2026-11-23T00:00:00.000Z" }]);
  assert.deepEqual({ ...answer, chart: undefined }, {
    from: "2026-11-20",
    to: "2026-11-22",
    timeZone: "UTC",
    currencies: [2],
    days: [
      { date: "2026-11-20", totals: [{ currency: 2, amount: 2500, count: 1 }] },
      { date: "2026-11-21", totals: [] },
      { date: "2026-11-22", totals: [{ currency: 2, amount: 100, count: 1 }] },
    ],
    chart: undefined,
  });
  assert.ok(answer.chart.includes(translator("es")("chart.title")));
  assert.equal([...answer.chart.matchAll(/class="chart-panel"/g)].length, 1);
});
