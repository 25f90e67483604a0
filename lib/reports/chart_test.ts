/** The monthly report's chart: its month labels have room in every language and range. */
import assert from "node:assert/strict";
import { openStore } from "@/lib/storage/mod.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";
import { estimateTextWidth } from "@/lib/shared/axis_labels.ts";
import { txFixture } from "@/tests/storage/fixtures.ts";
import { reportChartSvg } from "./chart.ts";
import { monthlyReport } from "./monthly.ts";

const unescape = (s: string) =>
  s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

/** The centred texts of `svg` (the axis labels), grouped by line (their `y`). */
function axisLines(svg: string): Map<string, { x: number; text: string }[]> {
  const lines = new Map<string, { x: number; text: string }[]>();
  for (
    const m of svg.matchAll(
      /<text x="([\d.-]+)" y="([\d.-]+)"[^>]*text-anchor="middle"[^>]*>([^<]*)<\/text>/g,
    )
  ) {
    lines.set(m[2], [...(lines.get(m[2]) ?? []), { x: Number(m[1]), text: unescape(m[3]) }]);
  }
  return lines;
}

Deno.test("reportChartSvg: month labels never overlap, in every language, for 1 to 36 months", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    await store.transactions.record(txFixture({ createdAt: "2026-01-10T10:00:00.000Z", currency: 1 }));
    await store.transactions.record(txFixture({ createdAt: "2026-01-11T10:00:00.000Z", currency: 2 }));
    for (let count = 1; count <= 36; count++) {
      const end = 2026 * 12 + count - 1;
      const to = `${Math.floor(end / 12)}-${String(end % 12 + 1).padStart(2, "0")}`;
      const report = await monthlyReport(store, { from: "2026-01", to }, "Asia/Jerusalem");
      for (const lang of LANGUAGES) {
        const svg = reportChartSvg(report, lang);
        const size = Number(svg.match(/font-size="(\d+)"/)![1]);
        const width = Number(svg.match(/viewBox="0 0 (\d+)/)![1]);
        const lines = axisLines(svg);
        assert.ok(lines.size > 0, `${lang} ${count}: labels`);
        const months = [...lines.values()].sort((a, b) => b.length - a.length)[0];
        assert.ok(months.length >= Math.min(count, 6), `${lang} ${count}: ${months.length} month labels`);
        for (const [y, labels] of lines) {
          const boxes = labels.map(({ x, text }) => {
            const half = estimateTextWidth(text, size) / 2;
            return { from: x - half, to: x + half, text };
          }).sort((a, b) => a.from - b.from);
          boxes.forEach((box, i) => {
            assert.ok(box.from >= 0 && box.to <= width, `${lang} ${count}: "${box.text}" leaves the chart`);
            if (i > 0) {
              assert.ok(
                box.from >= boxes[i - 1].to,
                `${lang}, ${count} months, line ${y}: "${boxes[i - 1].text}" runs into "${box.text}"`,
              );
            }
          });
        }
      }
    }
  } finally {
    await store.close();
  }
});

Deno.test("reportChartSvg: laid out at the width asked, every text within it, headings and legend on more lines", async () => {
  const store = await openStore({ kvPath: ":memory:" });
  try {
    await store.transactions.record(txFixture({ createdAt: "2026-01-10T10:00:00.000Z", currency: 1 }));
    await store.transactions.record(txFixture({ createdAt: "2026-01-11T10:00:00.000Z", currency: 2 }));
    const report = await monthlyReport(store, { from: "2025-02", to: "2026-01" }, "Asia/Jerusalem");
    for (const lang of LANGUAGES) {
      const wide = reportChartSvg(report, lang);
      for (const width of [280, 358, 720, 1200]) {
        const svg = reportChartSvg(report, lang, width);
        assert.equal(Number(svg.match(/viewBox="0 0 (\d+)/)![1]), width);
        // Every text, wherever it is anchored, within the chart (estimated at the chart's type).
        for (
          const m of svg.matchAll(
            /<text x="([\d.-]+)" y="[\d.-]+"[^>]*text-anchor="(\w+)"[^>]*>([^<]*)<\/text>/g,
          )
        ) {
          const [x, anchor, text] = [Number(m[1]), m[2], unescape(m[3])];
          const w = estimateTextWidth(text, 13) * (m[0].includes("bold") ? 1.08 : 1);
          const rtl = lang === "he";
          const [from, to] = anchor === "middle"
            ? [x - w / 2, x + w / 2]
            : (anchor === "start") !== rtl
            ? [x, x + w]
            : [x - w, x];
          assert.ok(
            from >= -0.5 && to <= width + 0.5,
            `${lang} ${width}: "${text}" leaves the chart (${from}..${to})`,
          );
        }
      }
      // A phone's chart is taller than a laptop's: the same type on more lines.
      const height = (svg: string) => Number(svg.match(/viewBox="0 0 \d+ (\d+)/)![1]);
      assert.ok(height(reportChartSvg(report, lang, 280)) > height(wide), `${lang}: more lines at 280`);
    }
  } finally {
    await store.close();
  }
});
