/**
 * `GET /api/overview` (issue 26): each role gets exactly its parts, a caller without a session 401,
 * a bad `lang` a clear 400; and every figure's link opens a list (through the API the section's
 * island calls, with the query it reads) that shows exactly the rows counted.
 *
 * @module
 */

import assert from "node:assert/strict";
import { dayOf } from "@/lib/core/zoned_time.ts";
import { outboxItem } from "@/lib/outbox/outbox_view.ts";
import { type Overview, partsFor } from "@/lib/shared/overview.ts";
import { listQueries, readView } from "@/lib/shared/transaction_filters.ts";
import { EVERY_ROLE } from "@/lib/staff/roles.ts";
import type { Transaction } from "@/lib/storage/types.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { backendTest } from "@/tests/helpers/stores.ts";
import { overviewScene as scene } from "@/tests/helpers/overview.ts";
import { tokensFor } from "@/tests/helpers/role_tokens.ts";

backendTest("api: GET /api/overview answers each role exactly its parts", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store });
  try {
    await scene(store, app.config.museumTimeZone);
    const tokens = await tokensFor(app, store);
    for (const role of EVERY_ROLE) {
      await t.step(role, async () => {
        const { status, body } = await api(
          app.url,
          "GET",
          "/api/overview?lang=he",
          undefined,
          bearer(tokens.get(role)!),
        );
        assert.equal(status, 200);
        const parts = Object.keys(body).filter((key) => !["timeZone", "today", "at"].includes(key));
        assert.deepEqual(parts.sort(), partsFor(role).sort());
        assert.equal(body.timeZone, "Asia/Jerusalem");
        assert.match(body.gifts.today.href, /^\/he\/admin\/transactions\?type=success&from=/);
      });
    }
    await t.step("the front desk has no overview (issue 28)", async () => {
      const desk = await api(app.url, "GET", "/api/overview", undefined, bearer(tokens.get("desk")!));
      assert.equal(desk.status, 403);
    });
    await t.step("401 without a session, 403 while waiting for approval", async () => {
      const none = await api(app.url, "GET", "/api/overview?lang=en");
      assert.equal(none.status, 401);
      assert.equal(none.body.statusCode, 401);
      const waiting = await api(app.url, "GET", "/api/overview", undefined, bearer(tokens.get("pending")!));
      assert.equal(waiting.status, 403);
    });
    await t.step("a bad lang is a 400 that says which languages", async () => {
      for (const lang of ["xx", "EN", "", "he-IL"]) {
        const bad = await api(
          app.url,
          "GET",
          `/api/overview?lang=${lang}`,
          undefined,
          bearer(tokens.get("owner")!),
        );
        assert.equal(bad.status, 400, lang);
        assert.equal(bad.body.statusCode, 400);
        assert.match(bad.body.message, /lang must be en, he, ru, pt or es/);
      }
      // No lang: English links.
      const plain = await api(app.url, "GET", "/api/overview", undefined, bearer(tokens.get("viewer")!));
      assert.match(plain.body.gifts.today.href, /^\/en\//);
    });
  } finally {
    await app.close();
  }
});

backendTest("api: every overview link opens a list showing exactly the rows counted", async (t, open) => {
  const store = await open();
  const app = await startTestApp({ store });
  try {
    const { txs, today } = await scene(store, app.config.museumTimeZone);
    const tokens = await tokensFor(app, store);
    const owner = bearer(tokens.get("owner")!);
    const get = (path: string) => api(app.url, "GET", path, undefined, owner);
    const overview: Overview = (await get("/api/overview?lang=en")).body;
    const zone = app.config.museumTimeZone;
    /** The rows the history shows for a link: the island's own queries of the view it reads. */
    const historyRows = async (href: string) => {
      const view = readView(new URL(href, app.url).searchParams);
      const queries = listQueries({ ...view, page: 1 }, 100);
      const success = (await get(`/api/transaction/get-all-success-transactions?${queries.success}`)).body;
      const error = queries.error === null
        ? { data: [], total: 0 }
        : (await get(`/api/transaction/get-all-error-transactions?${queries.error}`)).body;
      const shown = [
        ...(view.type === "error" ? [] : success.data),
        ...(view.type === "success" ? [] : error.data),
      ];
      return shown.map((item: { id: string }) => item.id).sort();
    };
    const ids = (list: Transaction[]) => list.map((tx) => tx.id).sort();
    const inDays = (tx: Transaction, from: string, to: string) =>
      dayOf(tx.createdAt, zone) >= from && dayOf(tx.createdAt, zone) <= to;

    await t.step("gifts: today, this month, last month's same days, last month", async () => {
      const g = overview.gifts!;
      for (const period of [g.today, g.thisMonth, g.lastMonthSameDays, g.lastMonth]) {
        const counted = txs.filter((tx) => tx.kind === "success" && inDays(tx, period.from, period.to));
        assert.equal(period.totals.reduce((n, c) => n + c.count, 0), counted.length, period.href);
        assert.deepEqual(await historyRows(period.href), ids(counted), period.href);
      }
      assert.ok(overview.gifts!.today.totals.length > 0, "today has gifts");
      assert.equal(overview.gifts!.today.to, today);
    });
    await t.step("monthly charges failing: their declined charges", async () => {
      assert.equal(overview.monthlyFailing!.count, 1);
      assert.deepEqual(await historyRows(overview.monthlyFailing!.href), [txs[3].id]);
    });
    await t.step("refunds pending: the gifts they are on", async () => {
      assert.equal(overview.refunds!.count, 1);
      assert.deepEqual(await historyRows(overview.refunds!.href), [txs[4].id]);
    });
    await t.step("email failing: the outbox list filtered the same way", async () => {
      assert.deepEqual([overview.email!.failed, overview.email!.retrying], [1, 1]);
      const since = new URL(overview.email!.href, app.url).searchParams.get("failingSince");
      const page = (await get(`/api/outbox?failingSince=${since}`)).body;
      const want = await Promise.all(
        ["receipt:api-overview-2", "receipt:api-overview-1"].map(async (key) =>
          (await outboxItem((await store.outbox.get(key))!)).id
        ),
      );
      assert.deepEqual(page.data.map((m: { id: string }) => m.id), want);
    });
    await t.step("accounts waiting: the pending list", async () => {
      assert.equal(overview.approvals!.href, "/en/admin/staff#approvals");
      assert.equal((await get("/api/auth/admin/pending")).body.length, overview.approvals!.count);
      assert.equal(overview.approvals!.count, 1);
    });
    await t.step("kiosks not seen for a day", async () => {
      assert.equal(overview.kiosks!.href, "/en/admin/kiosks?unseen=true");
      const devices = (await get("/api/kiosk-devices?unseen=true")).body;
      assert.deepEqual(devices.map((d: { name: string }) => d.name), ["Quiet"]);
      assert.deepEqual(overview.kiosks!.devices.map((d) => d.name), ["Quiet"]);
      assert.equal((await get("/api/kiosk-devices")).body.length, 2);
    });
  } finally {
    await app.close();
  }
});

backendTest("api: the lists' new filters check their input", async (_t, open) => {
  const store = await open();
  const app = await startTestApp({ store });
  try {
    const owner = bearer((await tokensFor(app, store)).get("owner")!);
    const bad: [string, RegExp][] = [
      ["/api/transaction/get-all-success-transactions?from=2026-02-30", /from must be a day/],
      ["/api/transaction/get-all-error-transactions?to=yesterday", /to must be a day/],
      [
        "/api/transaction/get-all-success-transactions?from=2026-11-29&to=2026-11-01",
        /from must not be after to/,
      ],
      ["/api/transaction/get-all-success-transactions?refund=done", /refund must be pending/],
      ["/api/transaction/export?from=2026-13-01", /from must be a day/],
      ["/api/outbox?failingSince=last-week", /failingSince must be a day/],
      ["/api/kiosk-devices?unseen=yes", /unseen must be true or false/],
    ];
    for (const [path, message] of bad) {
      const answer = await api(app.url, "GET", path, undefined, owner);
      assert.equal(answer.status, 400, path);
      assert.match(answer.body.message, message, path);
    }
  } finally {
    await app.close();
  }
});
