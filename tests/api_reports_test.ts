/**
 * `GET /api/reports/monthly` (and `.csv`, `.svg`) on both backends: months in the museum's time
 * zone (a gift at 23:30 on the last evening of January in Jerusalem is February's), the figures per
 * currency and kind, donors, monthly gifts started and cancelled, failed charges, every month of
 * the range present; the CSV's rows and header language; the chart drawn on the server in the
 * page's language; finance, admin and owner only; bad ranges refused with a clear 400.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { AdminRole } from "@/lib/staff/roles.ts";
import { createAccessToken, deriveKey } from "@/lib/staff/tokens.ts";
import type { MonthFigures } from "@/lib/reports/monthly.ts";
import type { Store } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { adminFixture, subscriptionFixture, txFixture } from "@/tests/storage/fixtures.ts";

const REPORT = "/api/reports/monthly";

/** A signed-in admin of `role` on the app's store. */
async function tokenOf(store: Store, appSecret: string, role: AdminRole): Promise<string> {
  const admin = await store.admins.create(adminFixture({ status: "approved", role }));
  return await createAccessToken(await deriveKey(appSecret, "admin-access-token/v1"), { adminId: admin.id });
}

async function seed(store: Store) {
  const user = (email: string) => ({ firstName: "<b>Dana</b>", lastName: "Levi", email });
  const gifts = [
    // 2026-01-31 23:30 in Jerusalem (UTC+2) is 21:30 UTC: January's.
    txFixture({ createdAt: "2026-01-31T21:30:00.000Z", amount: 10_000, currency: 1, user: user("a@x.org") }),
    // 2026-02-01 00:30 in Jerusalem is 22:30 UTC on January 31st: February's.
    txFixture({ createdAt: "2026-01-31T22:30:00.000Z", amount: 5_000, currency: 1, user: user("a@x.org") }),
    txFixture({
      createdAt: "2026-02-10T10:00:00.000Z",
      amount: 2_500,
      currency: 1,
      isMonthly: true,
      user: user("b@x.org"),
    }),
    txFixture({ createdAt: "2026-02-11T10:00:00.000Z", amount: 1_999, currency: 2, user: user("a@x.org") }),
    txFixture({ kind: "error", createdAt: "2026-02-12T10:00:00.000Z" }),
    txFixture({ kind: "error", isMonthly: true, createdAt: "2026-02-13T10:00:00.000Z" }),
    // December, before the range.
    txFixture({ createdAt: "2025-12-31T21:59:59.999Z", amount: 77_700, currency: 1 }),
  ];
  for (const tx of gifts) await store.transactions.record(tx);
  const started = await store.subscriptions.create(
    subscriptionFixture({ createdAt: "2026-02-10T10:00:00.000Z", currency: 1, amount: 2_500 }),
  );
  await store.subscriptions.updateIfVersion(started.id, started.version, {
    status: "cancelled",
    cancelledAt: "2026-03-05T10:00:00.000Z",
    cancelReason: "other",
  });
}

backendTest("api: the accountant's monthly report", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store });
  try {
    await seed(store);
    const finance = await tokenOf(store, app.config.appSecret, "finance");
    const get = (query: string, token = finance) =>
      api(app.url, "GET", `${REPORT}${query}`, undefined, bearer(token));

    await t.step("every month of the range, in the museum's time zone, per currency and kind", async () => {
      const res = await get("?from=2026-01&to=2026-04");
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "no-store");
      const body = res.body;
      assert.deepEqual([body.from, body.to, body.timeZone], ["2026-01", "2026-04", "Asia/Jerusalem"]);
      assert.deepEqual(body.currencies, [1, 2]);
      assert.deepEqual(body.months.map((m: { month: string }) => m.month), [
        "2026-01",
        "2026-02",
        "2026-03",
        "2026-04",
      ]);
      const [jan, feb, mar, apr] = body.months;
      assert.deepEqual([jan.start, jan.end], ["2025-12-31T22:00:00.000Z", "2026-01-31T22:00:00.000Z"]);
      assert.equal(apr.start, "2026-03-31T21:00:00.000Z", "summer time from the end of March");
      const ils = (m: MonthFigures) => m.money.find((c) => c.currency === 1)!;
      const usd = (m: MonthFigures) => m.money.find((c) => c.currency === 2)!;
      assert.deepEqual(ils(jan), {
        currency: 1,
        donations: {
          oneTime: { amount: 10_000, count: 1 },
          monthly: { amount: 0, count: 0 },
          total: { amount: 10_000, count: 1 },
        },
        refunds: {
          oneTime: { amount: 0, count: 0 },
          monthly: { amount: 0, count: 0 },
          total: { amount: 0, count: 0 },
        },
        net: { oneTime: 10_000, monthly: 0, total: 10_000 },
        newMonthly: { amount: 0, count: 0 },
        cancelledMonthly: { amount: 0, count: 0 },
      });
      assert.deepEqual(ils(feb).donations.total, { amount: 7_500, count: 2 });
      assert.deepEqual(ils(feb).donations.monthly, { amount: 2_500, count: 1 });
      assert.deepEqual(ils(feb).newMonthly, { amount: 2_500, count: 1 });
      assert.deepEqual(usd(feb).net, { oneTime: 1_999, monthly: 0, total: 1_999 });
      assert.deepEqual(usd(jan).donations.total, { amount: 0, count: 0 });
      assert.deepEqual(ils(mar).cancelledMonthly, { amount: 2_500, count: 1 });
      assert.deepEqual([jan.donors, feb.donors, mar.donors], [1, 2, 0]);
      assert.deepEqual(feb.failedCharges, { oneTime: 1, monthly: 1, total: 2 });
      assert.deepEqual(ils(apr).donations.total, { amount: 0, count: 0 });
      assert.deepEqual(body.totals.map((c: { net: { total: number } }) => c.net.total), [17_500, 1_999]);
      const text = JSON.stringify(body);
      assert.ok(!text.includes("Dana") && !text.includes("@"), "no donor data");
    });

    await t.step("one month alone; default twelve months ending this month", async () => {
      const one = await get("?from=2026-02");
      assert.deepEqual(one.body.months.map((m: { month: string }) => m.month), ["2026-02"]);
      const year = await get("");
      assert.equal(year.status, 200);
      assert.equal(year.body.months.length, 12);
    });

    await t.step("CSV: a row per month, both currencies, the header in the language asked", async () => {
      const res = await fetch(`${app.url}${REPORT}.csv?from=2026-01&to=2026-03&lang=he`, {
        headers: bearer(finance),
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type")!, /^text\/csv/);
      assert.match(res.headers.get("content-disposition")!, /monthly-report-2026-01-2026-03\.csv/);
      const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await res.arrayBuffer());
      assert.ok(text.startsWith("\uFEFF"), "a byte order mark");
      const rows = text.slice(1).split("\r\n").filter((row) => row !== "");
      assert.equal(rows.length, 4);
      assert.ok(rows[0].startsWith("חודש,תרומות חד־פעמיות ב־ILS,"), rows[0]);
      assert.equal(rows[0].split(",").length, 1 + 2 * 13 + 3);
      const feb = rows[2].split(",");
      assert.equal(feb[0], "2026-02");
      assert.deepEqual(feb.slice(1, 6), ["50.00", "1", "25.00", "1", "75.00"]);
      assert.equal(feb[9], "75.00", "ILS net");
      assert.deepEqual(feb.slice(14, 15), ["19.99"], "USD one-time");
      assert.deepEqual(feb.slice(-3), ["2", "1", "1"], "donors, failed one-time, failed monthly");
      // The download is in the audit log: who, from where, which months.
      const [entry] = await store.audit.list({ action: "export" }, 10);
      assert.deepEqual(entry.changes, { kind: "monthly-report", from: "2026-01", to: "2026-03" });
      assert.equal(entry.actorEmail, (await store.admins.get(entry.actorId!))!.email);
      assert.ok(entry.address !== "", "the client address");
    });

    await t.step(
      "the chart is drawn on the server, named, in the page's language and direction",
      async () => {
        const res = await fetch(`${app.url}${REPORT}.svg?from=2026-01&to=2026-03&lang=he`, {
          headers: bearer(finance),
        });
        assert.equal(res.status, 200);
        assert.match(res.headers.get("content-type")!, /^image\/svg\+xml/);
        const svg = await res.text();
        assert.ok(svg.startsWith("<svg") && svg.includes('role="img"') && svg.includes('direction="rtl"'));
        assert.ok(svg.includes('<title id="report-chart-title">תרומות והחזרים לפי חודש</title>'), svg);
        assert.equal(
          (svg.match(/<rect [^>]*><title>/g) ?? []).length,
          4,
          "a bar per month, kind and currency with money",
        );
        const en =
          await (await fetch(`${app.url}${REPORT}.svg?from=2026-05&to=2026-05`, { headers: bearer(finance) }))
            .text();
        assert.ok(en.includes("No donations or refunds from May 2026 to May 2026."), en);
      },
    );

    await t.step("owners and admins may; viewers are refused (403), strangers 401", async () => {
      for (const role of ["owner", "admin"] as const) {
        assert.equal(
          (await get("?from=2026-01", await tokenOf(store, app.config.appSecret, role))).status,
          200,
        );
      }
      const viewer = await tokenOf(store, app.config.appSecret, "viewer");
      for (const path of [REPORT, `${REPORT}.csv`, `${REPORT}.svg`]) {
        const refused = await api(app.url, "GET", path, undefined, bearer(viewer));
        assert.equal(refused.status, 403, path);
        assert.equal(typeof refused.body.message, "string");
        assert.equal((await api(app.url, "GET", path)).status, 401, path);
      }
    });

    await t.step("a malformed month, a range backwards or over 36 months: 400 with the reason", async () => {
      const cases: [string, RegExp][] = [
        ["?from=2026-13", /from must be a month written YYYY-MM/],
        ["?from=2026-1", /from must be a month written YYYY-MM/],
        ["?to=January", /to must be a month written YYYY-MM/],
        ["?from=2026-03&to=2026-02", /The last month \(2026-02\) is before the first \(2026-03\)/],
        ["?from=2023-01&to=2026-01", /at most 36 months/],
        ["?from=2026-01&from=2026-02", /given more than once/],
        ["?from=0099-12&to=0100-01", /Months are from 1970-01 to 9998-12/],
        ["?from=9999-12", /Months are from 1970-01 to 9998-12/],
      ];
      for (const [query, message] of cases) {
        const res = await get(query);
        assert.equal(res.status, 400, query);
        assert.match(res.body.message, message, query);
      }
      const csv = await api(app.url, "GET", `${REPORT}.csv?from=2026-01&lang=xx`, undefined, bearer(finance));
      assert.equal(csv.status, 400);
      assert.match(csv.body.message, /lang must be en, he, ru, pt or es/);
      assert.equal((await get("?from=2023-02&to=2026-01")).status, 200, "36 months exactly");
      // The chart's width: the box it is drawn for, 280 to 1200 pixels.
      const widths: [string, RegExp][] = [
        ["99", /width must be a whole number/],
        ["1201", /at most 1200/],
        ["279", /at least 280/],
      ];
      for (const [width, message] of widths) {
        const svg = await api(app.url, "GET", `${REPORT}.svg?width=${width}`, undefined, bearer(finance));
        assert.equal(svg.status, 400, width);
        assert.match(svg.body.message, message, width);
      }
      const drawn = await fetch(`${app.url}${REPORT}.svg?width=358&lang=he`, { headers: bearer(finance) });
      assert.match(await drawn.text(), /viewBox="0 0 358 /);
    });
  } finally {
    await app.close();
  }
});
