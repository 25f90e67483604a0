/**
 * Deno KV's `report-indexes` data migration: transactions and subscriptions stored before the
 * reports' time indexes existed are counted by `reports.figures` once the store is opened.
 *
 * @module
 */

import assert from "node:assert/strict";
import { openKvStore } from "./backends.ts";
import { subscriptionFixture, txFixture } from "./fixtures.ts";

Deno.test("kv: transactions and subscriptions written before the reports' indexes are counted once the store opens", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/old.kv`;
    const kv = await Deno.openKv(path);
    // As an older version wrote them: the records, no time index keys.
    const gift = txFixture({ createdAt: "2026-01-10T00:00:00.000Z", amount: 1_200, currency: 1 });
    const declined = txFixture({ kind: "error", createdAt: "2026-01-11T00:00:00.000Z" });
    const started = subscriptionFixture({ createdAt: "2026-01-10T00:00:00.000Z", currency: 1 });
    const ended = subscriptionFixture({
      createdAt: "2025-06-01T00:00:00.000Z",
      currency: 2,
      status: "cancelled",
      cancelledAt: "2026-01-15T00:00:00.000Z",
    });
    for (const tx of [gift, declined]) await kv.set(["transactions", tx.id], tx);
    for (const s of [started, ended]) await kv.set(["subscriptions", s.id], s);
    kv.close();
    const store = await openKvStore(path);
    try {
      assert.deepEqual(
        await store.reports.figures(["2026-01-01T00:00:00.000Z", "2026-02-01T00:00:00.000Z"]),
        {
          gifts: [{ period: 0, currency: 1, isMonthly: false, amount: 1_200, count: 1 }],
          refunds: [],
          donors: [{ period: 0, count: 1 }],
          failed: [{ period: 0, isMonthly: false, count: 1 }],
          newMonthly: [{ period: 0, currency: 1, amount: started.amount, count: 1 }],
          cancelledMonthly: [{ period: 0, currency: 2, amount: ended.amount, count: 1 }],
        },
      );
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
