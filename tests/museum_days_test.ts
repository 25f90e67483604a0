/**
 * One time zone for days (issue 26, item 6), through the API on both backends: the daily chart,
 * the monthly report and the transactions CSV count the museum's days (`MUSEUM_TIME_ZONE`), so a
 * gift at 00:30 on the first of the month in Jerusalem (22:30 or 21:30 UTC the evening before) is
 * on the same day and in the same month in each; the report follows the setting, not a constant.
 *
 * @module
 */
import assert from "node:assert/strict";
import { addDays, dayOf, dayStart } from "@/lib/core/zoned_time.ts";
import type { Store } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { txFixture } from "@/tests/storage/fixtures.ts";

const MINUTE = 60_000;

/** The first registered admin: the owner, approved, who may read reports and export. */
async function owner(url: string): Promise<Record<string, string>> {
  const admin = await api(url, "POST", "/api/auth/admin/register", {
    email: "owner@museum.org",
    password: "ledger-and-ink-2026",
  });
  return bearer(admin.body.accessToken);
}

/** Gifts around the start of this month in `zone`: the last half hour of the month before, the first of this one. */
async function seedMonthEdge(store: Store, zone: string) {
  const first = `${dayOf(Date.now(), zone).slice(0, 7)}-01`;
  const start = Date.parse(dayStart(first, zone));
  const gift = (ms: number, amount: number) =>
    txFixture({ createdAt: new Date(ms).toISOString(), amount, currency: 1 });
  const gifts = [
    gift(start - 30 * MINUTE, 1_000), // 23:30 on the last day of last month
    gift(start + 30 * MINUTE, 2_000), // 00:30 on the 1st: the evening before in UTC
    gift(start + 90 * MINUTE, 4_000), // 01:30 on the 1st
  ];
  for (const tx of gifts) await store.transactions.record(tx);
  return { first, gifts };
}

backendTest(
  "museum days: the chart and the monthly report put the same gifts on the same days",
  async (t, open) => {
    const zone = "Asia/Jerusalem";
    const app = await startTestApp({ store: await open() });
    try {
      const { first, gifts } = await seedMonthEdge(app.store, zone);
      const auth = await owner(app.url);
      const chart = await api(app.url, "GET", "/api/transaction/daily-totals?days=40", undefined, auth);
      assert.equal(chart.status, 200);
      const lastMonth = addDays(first, -1).slice(0, 7);
      const report = await api(
        app.url,
        "GET",
        `/api/reports/monthly?from=${lastMonth}&to=${first.slice(0, 7)}`,
        undefined,
        auth,
      );
      assert.equal(report.status, 200);

      await t.step("the chart: 00:30 and 01:30 on the 1st, 23:30 on the day before", () => {
        const day = (date: string) => chart.body.days.find((d: { date: string }) => d.date === date)?.totals;
        assert.deepEqual(day(first), [{ currency: 1, amount: 6_000, count: 2 }]);
        assert.deepEqual(day(addDays(first, -1)), [{ currency: 1, amount: 1_000, count: 1 }]);
        assert.equal(dayOf(gifts[1].createdAt, "UTC"), addDays(first, -1), "in UTC, the evening before");
      });

      await t.step("the report's months equal the chart's days summed by month", () => {
        const chartMonth = (month: string) =>
          chart.body.days.filter((d: { date: string }) => d.date.startsWith(month))
            .flatMap((d: { totals: { amount: number; count: number }[] }) => d.totals)
            .reduce((sum: { amount: number; count: number }, x: { amount: number; count: number }) => ({
              amount: sum.amount + x.amount,
              count: sum.count + x.count,
            }), { amount: 0, count: 0 });
        for (const month of report.body.months) {
          assert.deepEqual(month.money[0].donations.total, chartMonth(month.month), month.month);
        }
        assert.deepEqual(report.body.months.map((m: { month: string }) => m.month), [
          lastMonth,
          first.slice(0, 7),
        ]);
        assert.deepEqual(report.body.months[1].money[0].donations.total, { amount: 6_000, count: 2 });
        assert.deepEqual([chart.body.timeZone, report.body.timeZone], [zone, zone]);
      });
    } finally {
      await app.close();
    }
  },
);

backendTest("museum days: the report, the chart and the CSV follow MUSEUM_TIME_ZONE", async (t, open) => {
  const zone = "America/New_York";
  const app = await startTestApp({ store: await open(), env: { MUSEUM_TIME_ZONE: zone } });
  try {
    const { first } = await seedMonthEdge(app.store, zone);
    const auth = await owner(app.url);
    const month = first.slice(0, 7);

    await t.step("the report's months start at midnight in New York", async () => {
      const report = await api(
        app.url,
        "GET",
        `/api/reports/monthly?from=${month}&to=${month}`,
        undefined,
        auth,
      );
      assert.equal(report.status, 200);
      assert.equal(report.body.timeZone, zone);
      assert.equal(report.body.months[0].start, dayStart(first, zone));
      assert.deepEqual(report.body.months[0].money[0].donations.total, { amount: 6_000, count: 2 });
    });

    await t.step("the CSV's Date column: the museum's wall clock, the zone in its header", async () => {
      const res = await fetch(`${app.url}/api/transaction/export?type=success&lang=en`, { headers: auth });
      assert.equal(res.status, 200);
      // Fields without commas or quotes here: a plain split reads them.
      const rows = (await res.text()).replace(/^\uFEFF/, "").trimEnd().split("\r\n").map((r) => r.split(","));
      assert.equal(rows[0][0], `Date (${zone})`);
      // Newest first: 01:30 and 00:30 on the 1st, 23:30 the evening before, as the museum's clock read.
      assert.deepEqual(rows.slice(1).map((row) => row[0]), [
        `${first} 01:30:00`,
        `${first} 00:30:00`,
        `${addDays(first, -1)} 23:30:00`,
      ]);
    });
  } finally {
    await app.close();
  }
});
