/**
 * The chart's layout (`daily_totals_chart.ts`): round money lines, a panel per currency, time
 * running with the language's direction, the empty state. Texts as the admin page gives them.
 */
import assert from "node:assert/strict";
import { daysOf } from "@/tests/helpers/daily_totals.ts";
import { textsUnder } from "@/lib/core/i18n.ts";
import { type Lang, LANGUAGES } from "@/lib/shared/languages.ts";
import { estimateTextWidth } from "@/lib/shared/axis_labels.ts";
import { translator } from "@/islands/shared/texts.ts";
import { CHART, chartModel, niceTicks } from "./daily_totals_chart.ts";

/** The chart's texts in `lang`, as the admin page hands them to the island. */
const texts = (lang: Lang) => translator(textsUnder(lang, ["chart"]));

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

Deno.test("chartModel: a panel per currency; time runs left to right, or right to left in Hebrew", () => {
  const ltr = chartModel(days30, [1, 2], "en", texts("en"));
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

  const rtl = chartModel(days30, [1, 2], "he", texts("he"));
  assert.ok(rtl.rtl);
  const [heNis] = rtl.panels;
  assert.ok(heNis.bars[0].x > rtl.plot.right - 25, "the oldest day is at the right");
  assert.ok(heNis.bars[2].x < rtl.plot.left + 25, "today is at the left");
  assert.ok(heNis.dates.every((d, i, all) => i === 0 || d.x < all[i - 1].x));
  assert.ok(rtl.tickX > rtl.plot.right, "the money axis is on the right");
  const mirrored = heNis.bars[1].x + heNis.bars[1].width - (CHART.width - nis.bars[1].x);
  assert.ok(Math.abs(mirrored) < 1e-9, "mirrored exactly");

  const week = chartModel(daysOf([], "2026-11-16", 7), [], "en", texts("en"));
  assert.equal(week.panels.length, 0);
  assert.match(week.empty!, /No successful donations from Nov 16, 2026 to Nov 22, 2026/);
  assert.equal(
    chartModel(
      daysOf([{ day: "2026-11-20", currency: 2, amount: 1, count: 1 }], "2026-11-16", 7),
      [2],
      "en",
      texts("en"),
    )
      .panels[0].dates.length,
    7,
  );
});

Deno.test("chartModel: date labels never overlap, in every language, for 1 to 90 days", () => {
  for (const lang of LANGUAGES) {
    for (let count = 1; count <= 90; count++) {
      const days = daysOf([{ day: "2026-11-20", currency: 1, amount: 100, count: 1 }], "2026-09-01", count);
      const [panel] = chartModel(days, [1], lang, texts(lang)).panels;
      assert.ok(panel.dates.length >= Math.min(count, 2), `${lang} ${count}: ${panel.dates.length} labels`);
      const boxes = panel.dates.map(({ x, label }) => {
        const half = estimateTextWidth(label, 12) / 2;
        return { from: x - half, to: x + half, label };
      }).sort((a, b) => a.from - b.from);
      boxes.forEach((box, i) => {
        assert.ok(
          box.from >= 0 && box.to <= CHART.width,
          `${lang} ${count}: "${box.label}" leaves the chart`,
        );
        if (i > 0) {
          assert.ok(
            box.from >= boxes[i - 1].to,
            `${lang} ${count}: "${boxes[i - 1].label}" runs into "${box.label}"`,
          );
        }
      });
    }
  }
});
