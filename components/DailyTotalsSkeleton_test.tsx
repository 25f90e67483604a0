/** The chart's waiting state the admin page draws on the server (`chartSkeleton`). */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { DailyTotalsChart } from "@/islands/admin/DailyTotalsChart.tsx";
import { chartModel } from "@/islands/admin/daily_totals_chart.ts";
import { translator } from "@/islands/shared/texts.ts";
import { fillDays } from "@/lib/reports/daily_totals.ts";
import { textsUnder } from "@/lib/core/i18n.ts";
import { addDays } from "@/lib/core/zoned_time.ts";
import { type Lang, LANGUAGES } from "@/lib/shared/languages.ts";
import { chartSkeleton } from "./DailyTotalsSkeleton.tsx";

/** An empty two-currency chart of the same days, as the page would draw it. */
const renderChart = (days: ReturnType<typeof fillDays>, currencies: (1 | 2)[], lang: Lang) =>
  renderToString(
    <DailyTotalsChart model={chartModel(days, currencies, lang, translator(textsUnder(lang, ["chart"])))} />,
  );

Deno.test("chartSkeleton: the chart's size and date axis, the loading text, no figures, decorative", () => {
  // 00:30 on the 23rd in Jerusalem, the museum's zone: the 30 days end on the 23rd (in UTC, the 22nd).
  const now = new Date("2026-11-22T22:30:00Z");
  const days = Array.from({ length: 30 }, (_, i) => addDays("2026-10-25", i));
  for (const lang of LANGUAGES) {
    const skeleton = chartSkeleton(lang, "Loading <now>", "Asia/Jerusalem", 30, now);
    const chart = renderChart(fillDays([], days), [1, 2], lang);
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
