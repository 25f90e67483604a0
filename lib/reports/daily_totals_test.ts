/** The daily totals query: the window of the museum's days, every day filled in, the answer (data only). */
import assert from "node:assert/strict";
import { dailyTotals, fillDays, totalsWindow } from "./daily_totals.ts";
import type { DailyTotal, Store } from "@/lib/storage/types.ts";

const ZONE = "Asia/Jerusalem";

Deno.test("totalsWindow: the museum's days ending today, each day's start in its zone", () => {
  // 22:30 UTC on the 22nd is 00:30 on the 23rd in Jerusalem: today is the 23rd there.
  assert.deepEqual(totalsWindow(3, new Date("2026-11-22T22:30:00Z"), ZONE), {
    days: ["2026-11-21", "2026-11-22", "2026-11-23"],
    bounds: [
      "2026-11-20T22:00:00.000Z",
      "2026-11-21T22:00:00.000Z",
      "2026-11-22T22:00:00.000Z",
      "2026-11-23T22:00:00.000Z",
    ],
  });
  assert.deepEqual(totalsWindow(1, new Date("2026-11-22T21:59:59.999Z"), ZONE).days, ["2026-11-22"]);
  // In UTC the days are UTC's.
  assert.deepEqual(totalsWindow(2, new Date("2026-11-22T22:30:00Z"), "UTC"), {
    days: ["2026-11-21", "2026-11-22"],
    bounds: ["2026-11-21T00:00:00.000Z", "2026-11-22T00:00:00.000Z", "2026-11-23T00:00:00.000Z"],
  });
  assert.throws(() => totalsWindow(0, new Date(), ZONE), RangeError);
});

Deno.test("totalsWindow: a 23-hour and a 25-hour day when the clocks change", () => {
  // Israel went to summer time on Friday 2026-03-27 at 02:00, back on Sunday 2026-10-25 at 02:00.
  assert.deepEqual(totalsWindow(3, new Date("2026-03-28T12:00:00Z"), ZONE).bounds, [
    "2026-03-25T22:00:00.000Z",
    "2026-03-26T22:00:00.000Z",
    "2026-03-27T21:00:00.000Z",
    "2026-03-28T21:00:00.000Z",
  ]);
  assert.deepEqual(totalsWindow(2, new Date("2026-10-26T12:00:00Z"), ZONE).bounds, [
    "2026-10-24T21:00:00.000Z",
    "2026-10-25T22:00:00.000Z",
    "2026-10-26T22:00:00.000Z",
  ]);
  // Across a month, a year and a leap day.
  assert.deepEqual(totalsWindow(90, new Date("2028-03-01T00:00:00Z"), ZONE).days[0], "2027-12-03");
  assert.deepEqual(totalsWindow(2, new Date("2028-02-29T22:00:00Z"), ZONE).days, [
    "2028-02-29",
    "2028-03-01",
  ]);
});

Deno.test("fillDays: every day oldest first, totals by currency, nothing outside the window", () => {
  const entries: DailyTotal[] = [
    { period: 1, currency: 2, amount: 2500, count: 1 },
    { period: 1, currency: 1, amount: 500, count: 2 },
    { period: 3, currency: 1, amount: 9, count: 1 },
  ];
  assert.deepEqual(fillDays(entries, ["2026-11-20", "2026-11-21", "2026-11-22"]), [
    { date: "2026-11-20", totals: [] },
    {
      date: "2026-11-21",
      totals: [{ currency: 1, amount: 500, count: 2 }, { currency: 2, amount: 2500, count: 1 }],
    },
    { date: "2026-11-22", totals: [] },
  ]);
});

Deno.test("dailyTotals asks storage for the museum's days and answers them with the zone, data only", async () => {
  const asked: (readonly string[])[] = [];
  const store = {
    transactions: {
      dailyTotals(bounds: readonly string[]) {
        asked.push(bounds);
        return Promise.resolve<DailyTotal[]>([
          { period: 0, currency: 2, amount: 2500, count: 1 },
          { period: 2, currency: 2, amount: 100, count: 1 },
        ]);
      },
    },
  } as unknown as Store;
  const answer = await dailyTotals(store, { days: 3 }, ZONE, new Date("2026-11-22T22:30:00Z"));
  assert.deepEqual(asked, [[
    "2026-11-20T22:00:00.000Z",
    "2026-11-21T22:00:00.000Z",
    "2026-11-22T22:00:00.000Z",
    "2026-11-23T22:00:00.000Z",
  ]]);
  assert.deepEqual(answer, {
    from: "2026-11-21",
    to: "2026-11-23",
    timeZone: ZONE,
    currencies: [2],
    days: [
      { date: "2026-11-21", totals: [{ currency: 2, amount: 2500, count: 1 }] },
      { date: "2026-11-22", totals: [] },
      { date: "2026-11-23", totals: [{ currency: 2, amount: 100, count: 1 }] },
    ],
  });
});
