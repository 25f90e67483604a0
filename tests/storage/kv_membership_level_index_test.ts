/**
 * Deno KV's `membership-level-index` data migration: memberships stored before the level index
 * existed are listed by `memberships.listByLevel` once the store is opened.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { Membership } from "@/lib/storage/types.ts";
import { openKvStore } from "./backends.ts";

const membership = (email: string, levelId: number, end: string): Membership => ({
  email,
  number: email === "a@museum.example" ? "AAAA-0001" : "BBBB-0002",
  donorId: "donor_1",
  subscriptionId: null,
  cardholders: [],
  terms: [{
    levelId,
    start: "2025-01-01T00:00:00.000Z",
    end,
    kind: "join",
    transactionId: "tx_1",
    subscriptionId: null,
    amount: 10_000,
    currency: 1,
    charges: 1,
  }],
  end,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
  version: 1,
});

Deno.test("kv: memberships written before the level index are listed by level once the store opens", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/old.kv`;
    const kv = await Deno.openKv(path);
    // As the version before the members list wrote them: the record, its number and end keys only.
    const a = membership("a@museum.example", 2, "2026-01-01T00:00:00.000Z");
    const b = membership("b@museum.example", 3, "2026-02-01T00:00:00.000Z");
    for (const m of [a, b]) {
      await kv.set(["memberships", m.email], m);
      await kv.set(["memberships_by_number", m.number], m.email);
      await kv.set(["memberships_by_end", m.end, m.email], m.email);
    }
    kv.close();
    const store = await openKvStore(path);
    try {
      const range = { from: "2025-01-01T00:00:00.000Z", to: "2027-01-01T00:00:00.000Z" };
      assert.deepEqual(await store.memberships.listByLevel(2, range, 10), [a]);
      assert.deepEqual(await store.memberships.listByLevel(3, range, 10), [b]);
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
