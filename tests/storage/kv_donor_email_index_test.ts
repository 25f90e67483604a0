/**
 * Deno KV's `donor-email-index` data migration: donors stored before the portal's email index
 * existed are found by `donors.idsByEmail` once the store is opened.
 *
 * @module
 */

import assert from "node:assert/strict";
import { openKvStore } from "./backends.ts";
import { donorFixture } from "./fixtures.ts";

Deno.test("kv: donors written before the email index are indexed when the store opens", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/old.kv`;
    const old = [
      donorFixture({ id: "old_a", email: "old@example.org" }),
      donorFixture({ id: "old_b", email: "old@example.org" }),
    ];
    const kv = await Deno.openKv(path);
    for (const d of old) await kv.set(["donors", d.id], d); // as an older version wrote them: no index
    kv.close();
    const store = await openKvStore(path);
    try {
      assert.deepEqual(await store.donors.idsByEmail("old@example.org", 10), ["old_a", "old_b"]);
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
