/** The axis labels' choice: never overlapping, within the chart, the newest always shown. */
import assert from "node:assert/strict";
import { LANGUAGES } from "./languages.ts";
import { estimateTextWidth, fitAxisLabels, wrapText } from "./axis_labels.ts";

Deno.test("estimateTextWidth: wider for more and wider letters; direction marks take no room", () => {
  assert.ok(estimateTextWidth("Sep 2026", 13) > estimateTextWidth("Sep", 13));
  assert.ok(estimateTextWidth("MMM", 12) > estimateTextWidth("iii", 12));
  assert.equal(estimateTextWidth("\u2068Sep\u2069", 12), estimateTextWidth("Sep", 12));
  assert.equal(estimateTextWidth("Sep", 24), 2 * estimateTextWidth("Sep", 12));
});

Deno.test("fitAxisLabels: for every language and width from 120 to 1440, no two labels overlap", () => {
  for (const lang of LANGUAGES) {
    const name = new Intl.DateTimeFormat(lang, { month: "short", year: "numeric", timeZone: "UTC" });
    for (let width = 120; width <= 1440; width += 40) {
      for (const count of [1, 2, 5, 12, 24, 36]) {
        const slot = width / count;
        const centers = Array.from({ length: count }, (_, i) => slot * (i + 0.5));
        const text = (i: number) => name.format(Date.UTC(2026, i, 15));
        const fontSize = 13;
        const labels = fitAxisLabels(centers, (i) => [text(i)], {
          fontSize,
          steps: [1, 2, 3, 4, 6, 12],
          bounds: [0, width],
        });
        const where = `${lang}, ${width} wide, ${count} months`;
        assert.equal(labels.at(-1)?.index, count - 1, `${where}: the newest is shown`);
        const boxes = labels.map(({ x, lines }) => [
          x - estimateTextWidth(lines[0], fontSize) / 2,
          x + estimateTextWidth(lines[0], fontSize) / 2,
        ]);
        boxes.forEach(([from, to], i) => {
          assert.ok(from >= -1e-9 && to <= width + 1e-9, `${where}: inside`);
          if (i > 0) assert.ok(from >= boxes[i - 1][1] + fontSize / 2, `${where}: ${labels[i].lines[0]}`);
        });
      }
    }
  }
});

Deno.test("fitAxisLabels: the smallest step that fits; a label may add what changed since the one before", () => {
  const centers = [10, 30, 50, 70, 90];
  const step = (fit: number) =>
    fitAxisLabels(centers, (i) => [`${i}`.repeat(fit)], { fontSize: 10, steps: [1, 2, 4], bounds: [0, 100] })
      .map((l) => l.index);
  assert.deepEqual(step(1), [0, 1, 2, 3, 4]);
  assert.deepEqual(step(3), [0, 2, 4]);
  assert.deepEqual(step(6), [0, 4]);
  assert.deepEqual(step(12), [4], "none fits: the newest alone");
  const edge = fitAxisLabels([2, 98], (i) => [`${i}`.repeat(3)], {
    fontSize: 10,
    steps: [1],
    bounds: [0, 100],
  });
  assert.ok(edge[0].x - estimateTextWidth("000", 10) / 2 >= 0, "moved inwards at the start");
  assert.ok(edge[1].x + estimateTextWidth("111", 10) / 2 <= 100, "and at the end");
  const previous = fitAxisLabels(centers, (i, before) => [`${i}<${before ?? "-"}`], {
    fontSize: 4,
    steps: [2],
    bounds: [0, 100],
  });
  assert.deepEqual(previous.map((l) => l.lines[0]), ["0<-", "2<0", "4<2"]);
  assert.deepEqual(fitAxisLabels([], () => ["x"], { fontSize: 10, steps: [1], bounds: [0, 1] }), []);
});

Deno.test("wrapText: lines within the width, every word kept in order, isolated runs whole", () => {
  const heading = "Shekels (ILS) — total \u2068₪12,616.67\u2069, donations: 2";
  assert.deepEqual(wrapText(heading, 1000, 14), [heading]);
  const lines = wrapText(heading, 200, 14);
  assert.ok(lines.length >= 2);
  assert.equal(lines.join(" "), heading);
  for (const line of lines) assert.ok(estimateTextWidth(line, 14) <= 200 || !line.includes(" "), line);
  // An isolate with a space inside is one word.
  const named = wrapText("for \u2068Dana Levi-Montalcini\u2069 today", 60, 14);
  assert.ok(named.includes("\u2068Dana Levi-Montalcini\u2069"), JSON.stringify(named));
  assert.deepEqual(wrapText("", 100, 14), [""]);
});
