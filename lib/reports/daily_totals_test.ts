/** The daily totals query: the window of UTC days, every day filled in, the answer (data only). */
import assert from "node:assert/strict";
import { dailyTotals, fillDays, totalsWindow } from "./daily_totals.ts";
import type { DailyTotal, Store } from "@/lib/storage/types.ts";

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

Deno.test("dailyTotals answers the window's every day and the currencies present, data only", async () => {
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
  const answer = await dailyTotals(store, { days: 3 }, new Date("2026-11-22T10:00:00Z"));
  assert.deepEqual(asked, [{ from: "2026-11-20T00:00:00.000Z", to: "2026-11-23T00:00:00.000Z" }]);
  assert.deepEqual(answer, {
    from: "2026-11-20",
    to: "2026-11-22",
    timeZone: "UTC",
    currencies: [2],
    days: [
      { date: "2026-11-20", totals: [{ currency: 2, amount: 2500, count: 1 }] },
      { date: "2026-11-21", totals: [] },
      { date: "2026-11-22", totals: [{ currency: 2, amount: 100, count: 1 }] },
    ],
  });
});
