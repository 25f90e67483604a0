/**
 * `GET /api/transaction/daily-totals` on both backends: sums and counts per day of the museum's
 * time zone (`MUSEUM_TIME_ZONE`, Asia/Jerusalem by default) and currency equal what was recorded
 * (inside the window only, successes only), every day present, data only (the admin page draws
 * the chart: islands/admin/DailyTotalsChart_test.tsx); auth and validation. Its chart, drawn on the
 * server (`GET /api/transaction/daily-totals.svg`, issue 29: the section ships no chart code), is
 * the chart the page drew from those figures, in the page's language and at its box's width.
 */
import assert from "node:assert/strict";
import { newId } from "@/lib/core/ids.ts";
import { addDays, dayOf, dayStart } from "@/lib/core/zoned_time.ts";
import type { Transaction } from "@/lib/storage/types.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { renderToString } from "preact-render-to-string";
import { DailyTotalsChart } from "@/islands/admin/DailyTotalsChart.tsx";
import { chartModel } from "@/islands/admin/daily_totals_chart.ts";
import { translator } from "@/islands/shared/texts.ts";
import { textsUnder } from "@/lib/core/i18n.ts";
import { backendTest } from "@/tests/helpers/stores.ts";

const TOTALS = "/api/transaction/daily-totals";

/** The first to register is an approved owner; the next waits for approval. */
const FINANCE = { email: "finance@museum.org", password: "ledger-and-ink-2026" };
const INTERN = { email: "intern@museum.org", password: "another-long-passphrase-9" };
const register = (app: TestApp, who: { email: string; password: string }) =>
  api(app.url, "POST", "/api/auth/admin/register", who);
const ZONE = "Asia/Jerusalem";

/** A transaction `daysAgo` days before today in Jerusalem, `ms` after that day's midnight there. */
function tx(
  today: string,
  daysAgo: number,
  ms: number,
  fields: { kind?: Transaction["kind"]; amount: number | null; currency: 1 | 2 | null; isMonthly?: boolean },
): Transaction {
  const kind = fields.kind ?? "success";
  return {
    id: newId(),
    kind,
    statusCode: kind === "success" ? "000" : "033",
    isMonthly: fields.isMonthly ?? false,
    createdAt: new Date(Date.parse(dayStart(addDays(today, -daysAgo), ZONE)) + ms).toISOString(),
    donorId: newId(),
    user: { firstName: "<b>Dana</b>", lastName: "Levi", email: "dana@example.org" },
    amount: fields.amount,
    currency: fields.currency,
    resultData: null,
    errorMessage: kind === "success" ? null : "declined",
    provider: "sandbox",
    providerTransactionId: newId(),
  };
}

/** The expected `days` of an answer: every day from `first`, the successes summed per currency. */
function expectedDays(txs: Transaction[], first: string, days: number) {
  return Array.from({ length: days }, (_, i) => {
    const date = addDays(first, i);
    const totals = ([1, 2] as const).map((currency) => {
      const matching = txs.filter((t) =>
        t.kind === "success" && t.currency === currency && t.amount !== null &&
        dayOf(t.createdAt, ZONE) === date
      );
      return { currency, amount: matching.reduce((sum, t) => sum + t.amount!, 0), count: matching.length };
    }).filter((total) => total.count > 0);
    return { date, totals };
  });
}

backendTest("api: daily totals", async (t, open) => {
  const app = await startTestApp({ store: await open() });
  try {
    const today = dayOf(Date.now(), ZONE);
    const H = 3_600_000;
    // Oldest first, as they happen: outside the window, at its edges, inside it, errors, a gap.
    const txs = [
      tx(today, 45, 10 * H, { amount: 99_900, currency: 1 }),
      tx(today, 29, -1, { amount: 77_700, currency: 2 }), // the last ms before a 30-day window
      tx(today, 29, 0, { amount: 10_000, currency: 1 }), // its first ms
      tx(today, 29, 5 * H, { amount: 550, currency: 2, isMonthly: true }),
      tx(today, 29, 6 * H, { kind: "error", amount: 40_000, currency: 1 }),
      tx(today, 12, 9 * H, { amount: 2_000, currency: 1 }),
      tx(today, 12, 9 * H + 1, { amount: 2_000, currency: 1, isMonthly: true }),
      tx(today, 12, 10 * H, { amount: null, currency: null }), // an unknown amount is not summed
      tx(today, 6, 23 * H, { amount: 123_456, currency: 2 }), // the first day of a 7-day window
      tx(today, 6, 23 * H + 5, { kind: "error", amount: 5_000, currency: 2 }),
      tx(today, 1, 12 * H, { amount: 40_000, currency: 1 }),
      tx(today, 0, 1, { amount: 1, currency: 2 }),
      // 00:30 in Jerusalem: 22:30 (21:30 in summer) of the day before in UTC, today in the museum.
      tx(today, 0, 30 * 60_000, { amount: 3, currency: 2 }),
      tx(today, 0, 2 * H, { amount: 2_500, currency: 1, isMonthly: true }),
      tx(today, 0, 3 * H, { kind: "error", amount: 10_000, currency: 2 }),
      tx(today, -1, 0, { amount: 8_800, currency: 1 }), // tomorrow's first ms: in no window yet
    ];
    for (const one of txs) await app.store.transactions.record(one);
    const admin = await register(app, FINANCE);
    const pending = await register(app, INTERN);
    const get = (query = "", headers: Record<string, string> = bearer(admin.body.accessToken)) =>
      api(app.url, "GET", `${TOTALS}${query}`, undefined, headers);
    /** The server's today (the test may run across midnight); it must be ours or the next day. */
    const serverToday = (to: string) => {
      assert.ok([today, addDays(today, 1)].includes(to), `to: ${to}`);
      return to;
    };

    await t.step("30 days by default: every day, sums and counts per currency, successes only", async () => {
      const res = await get();
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "no-store");
      const end = serverToday(res.body.to);
      const first = addDays(end, -29);
      assert.deepEqual(Object.keys(res.body).sort(), [
        "currencies",
        "days",
        "from",
        "timeZone",
        "to",
      ]);
      assert.deepEqual([res.body.from, res.body.timeZone], [first, ZONE]);
      assert.deepEqual(res.body.currencies, [1, 2]);
      assert.equal(res.body.days.length, 30);
      assert.deepEqual(res.body.days, expectedDays(txs, first, 30));
      if (end === today) {
        // Spelled out, for the day this test was written for.
        const byDate = new Map(res.body.days.map((d: { date: string }) => [d.date, d]));
        assert.deepEqual(byDate.get(addDays(today, -29)), {
          date: addDays(today, -29),
          totals: [{ currency: 1, amount: 10_000, count: 1 }, { currency: 2, amount: 550, count: 1 }],
        });
        assert.deepEqual(byDate.get(addDays(today, -12)), {
          date: addDays(today, -12),
          totals: [{ currency: 1, amount: 4_000, count: 2 }],
        });
        // The gift at 00:30 in Jerusalem counts today, with the one at midnight.
        assert.deepEqual(byDate.get(today), {
          date: today,
          totals: [{ currency: 1, amount: 2_500, count: 1 }, { currency: 2, amount: 4, count: 2 }],
        });
        assert.deepEqual(byDate.get(addDays(today, -2)), { date: addDays(today, -2), totals: [] });
        assert.equal(res.body.days.filter((d: { totals: unknown[] }) => d.totals.length === 0).length, 25);
      }
    });

    await t.step("data only: no chart markup, no donor data", async () => {
      const res = await get();
      assert.equal(res.body.chart, undefined);
      const text = JSON.stringify(res.body);
      assert.ok(!text.includes("Dana") && !text.includes("Levi") && !text.includes("@"), "no donor data");
      assert.ok(!text.includes("<"), "no markup");
    });

    await t.step("days chooses the window: 7 days and 1 day", async () => {
      const week = await get("?days=7&lang=he");
      const end = serverToday(week.body.to);
      const first = addDays(end, -6);
      assert.equal(week.body.from, first);
      assert.deepEqual(week.body.days, expectedDays(txs, first, 7));
      const one = await get("?days=1");
      assert.deepEqual(one.body.days, expectedDays(txs, one.body.to, 1));
      assert.equal(one.body.from, one.body.to);
      const quarter = await get("?days=90");
      assert.deepEqual(quarter.body.days, expectedDays(txs, quarter.body.from, 90));
      assert.equal(quarter.body.days.length, 90);
    });

    await t.step("401 and 403 as the lists; bad parameters 400", async () => {
      assert.equal((await get("", {})).status, 401);
      assert.equal((await get("", bearer("not-a-token"))).status, 401);
      const forbidden = await get("", bearer(pending.body.accessToken));
      assert.equal(forbidden.status, 403);
      assert.equal(forbidden.body.statusCode, 403);
      const cases: [string, RegExp][] = [
        ["days=0", /days must be a whole number from 1 to 90/],
        ["days=91", /days must be a whole number from 1 to 90/],
        ["days=abc", /days must be a whole number/],
        ["days=7.5", /days must be a whole number/],
        ["days=-1", /days must be a whole number/],
        ["days=7%3Cscript%3E", /days must be a whole number/],
        ["days=1e1", /days must be a whole number/],
        ["lang=fr", /lang must be en, he, ru, pt or es/],
        ["lang=%3Csvg%20onload%3Dalert(1)%3E", /lang must be/],
        ["days=1&days=2", /given more than once/],
      ];
      for (const [query, message] of cases) {
        const res = await get(`?${query}`);
        assert.equal(res.status, 400, query);
        assert.match(res.body.message, message, query);
      }
    });
  } finally {
    await app.close();
  }
});

backendTest("api: daily totals of a window without donations", async (_t, open) => {
  const app = await startTestApp({ store: await open() });
  try {
    const today = dayOf(Date.now(), ZONE);
    await app.store.transactions.record(tx(today, 40, 0, { amount: 500, currency: 1 }));
    await app.store.transactions.record(tx(today, 0, 0, { kind: "error", amount: 500, currency: 1 }));
    const admin = await register(app, FINANCE);
    const res = await api(
      app.url,
      "GET",
      `${TOTALS}?days=14&lang=ru`,
      undefined,
      bearer(admin.body.accessToken),
    );
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.currencies, []);
    assert.equal(res.body.days.length, 14);
    assert.ok(res.body.days.every((d: { totals: unknown[] }) => d.totals.length === 0));
    assert.equal(res.body.chart, undefined);
  } finally {
    await app.close();
  }
});

backendTest("api: daily totals count the days of MUSEUM_TIME_ZONE", async (_t, open) => {
  const zone = "America/New_York";
  const app = await startTestApp({ store: await open(), env: { MUSEUM_TIME_ZONE: zone } });
  try {
    const today = dayOf(Date.now(), zone);
    const yesterday = addDays(today, -1);
    // 23:30 yesterday in New York: today in UTC (and in Jerusalem), yesterday for this museum.
    const late = Date.parse(dayStart(today, zone)) - 30 * 60_000;
    const gift = {
      ...tx(today, 0, 0, { amount: 700, currency: 2 }),
      createdAt: new Date(late).toISOString(),
    };
    await app.store.transactions.record(gift);
    const admin = await register(app, FINANCE);
    const res = await api(app.url, "GET", `${TOTALS}?days=3`, undefined, bearer(admin.body.accessToken));
    assert.equal(res.status, 200);
    assert.equal(res.body.timeZone, zone);
    const days = new Map(res.body.days.map((d: { date: string; totals: unknown[] }) => [d.date, d.totals]));
    if (res.body.to === today) {
      assert.deepEqual(days.get(yesterday), [{ currency: 2, amount: 700, count: 1 }]);
      assert.deepEqual(days.get(today), []);
    }
  } finally {
    await app.close();
  }
});

backendTest("api: the daily totals chart, drawn on the server from the same figures", async (t, open) => {
  const app = await startTestApp({ store: await open() });
  try {
    const today = dayOf(Date.now(), ZONE);
    await app.store.transactions.record(tx(today, 3, 9 * 3_600_000, { amount: 12_500, currency: 1 }));
    await app.store.transactions.record(tx(today, 1, 9 * 3_600_000, { amount: 4_000, currency: 2 }));
    const admin = await register(app, FINANCE);
    const pending = await register(app, INTERN);
    const svg = (query: string, headers: Record<string, string> = bearer(admin.body.accessToken)) =>
      fetch(`${app.url}${TOTALS}.svg${query}`, { headers });

    for (const [lang, width] of [["he", 390], ["en", 1200], ["ru", 280]] as const) {
      await t.step(`${lang} at ${width} px: the chart the figures make, as SVG`, async () => {
        const figures = await api(
          app.url,
          "GET",
          `${TOTALS}?days=30`,
          undefined,
          bearer(admin.body.accessToken),
        );
        const res = await svg(`?days=30&lang=${lang}&width=${width}`);
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-type"), "image/svg+xml; charset=utf-8");
        assert.equal(res.headers.get("cache-control"), "no-store");
        const body = await res.text();
        const model = chartModel(
          figures.body.days,
          figures.body.currencies,
          lang,
          translator(textsUnder(lang, ["chart"])),
          width,
        );
        assert.equal(body, renderToString(<DailyTotalsChart model={model} />));
        assert.match(body, /^<svg [^>]*role="img"/);
        assert.match(body, new RegExp(`viewBox="0 0 ${width} `));
        assert.match(body, new RegExp(`direction="${lang === "he" ? "rtl" : "ltr"}"`));
        assert.equal(body.match(/class="chart-panel"/g)?.length, 2, "a panel per currency");
        assert.ok(!body.includes("Dana") && !body.includes("@"), "no donor data");
      });
    }

    await t.step("defaults: 30 days, English, 720 px", async () => {
      const body = await (await svg("")).text();
      assert.match(body, /viewBox="0 0 720 /);
      assert.match(body, /direction="ltr"/);
    });

    await t.step("401 and 403 as the figures; bad parameters 400 with the reason", async () => {
      assert.equal((await svg("", {})).status, 401);
      assert.equal((await svg("", bearer("not-a-token"))).status, 401);
      assert.equal((await svg("", bearer(pending.body.accessToken))).status, 403);
      const cases: [string, RegExp][] = [
        ["width=279", /width must be at least 280/],
        ["width=1201", /width must be at most 1200/],
        ["width=abc", /width must be a whole number of pixels/],
        ["width=12", /width must be a whole number of pixels/],
        ["days=0", /days must be a whole number from 1 to 90/],
        ["lang=fr", /lang must be en, he, ru, pt or es/],
      ];
      for (const [query, message] of cases) {
        const res = await svg(`?${query}`);
        assert.equal(res.status, 400, query);
        const body = await res.json();
        assert.equal(body.statusCode, 400);
        assert.match(body.message, message, query);
      }
    });
  } finally {
    await app.close();
  }
});
