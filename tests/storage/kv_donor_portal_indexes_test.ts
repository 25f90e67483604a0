/**
 * Deno KV's `donor-portal-indexes` data migration: donors and transactions stored before the
 * portal's indexes existed are found by `donors.idsByEmail` and `transactions.listByDonors` once
 * the store is opened.
 *
 * @module
 */

import assert from "node:assert/strict";
import { openKvStore } from "./backends.ts";
import { donorFixture, txFixture } from "./fixtures.ts";

Deno.test("kv: donors and transactions written before the portal's indexes are indexed when the store opens", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/old.kv`;
    const old = [
      donorFixture({ id: "old_a", email: "old@example.org" }),
      donorFixture({ id: "old_b", email: "old@example.org" }),
    ];
    const kv = await Deno.openKv(path);
    for (const d of old) await kv.set(["donors", d.id], d); // as an older version wrote them: no index
    const gift = txFixture({ donorId: "old_a" });
    await kv.set(["transactions", gift.id], gift);
    kv.close();
    const store = await openKvStore(path);
    try {
      assert.deepEqual(await store.donors.idsByEmail("old@example.org", 10), ["old_a", "old_b"]);
      assert.deepEqual((await store.transactions.listByDonors(["old_a", "old_b"], 10)).map((t) => t.id), [
        gift.id,
      ]);
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
