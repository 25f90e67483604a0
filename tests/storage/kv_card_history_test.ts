/**
 * Deno KV's `card-update-history` data migration (issue 23): card-update attempts stored before the
 * index by gift existed are a gift's history (`cardUpdates.listBySubscription`) once the store opens.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { CardUpdate } from "@/lib/storage/types.ts";
import { openKvStore } from "./backends.ts";
import { at, uid } from "./fixtures.ts";

Deno.test("kv: card updates written before the index by gift are its history once the store opens", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/old.kv`;
    const kv = await Deno.openKv(path);
    const gift = uid("sub");
    const attempt = (createdAt: string, status: CardUpdate["status"], subscriptionId = gift): CardUpdate => ({
      id: uid("cu"),
      subscriptionId,
      donorIds: [uid("donor")],
      provider: "sandbox",
      providerRef: null,
      userKey: uid("key"),
      confirmationKey: null,
      language: "en",
      status,
      statusCode: status === "applied" ? "000" : null,
      createdAt,
      updatedAt: createdAt,
    });
    // As an older version wrote them: the records, no index by gift.
    const made = [
      attempt(at(2_000), "declined"),
      attempt(at(1_000), "applied"),
      attempt(at(500), "open", "other"),
    ];
    for (const u of made) await kv.set(["card_updates", u.id], u);
    kv.close();
    const store = await openKvStore(path);
    try {
      assert.deepEqual(await store.cardUpdates.listBySubscription(gift, 10), [made[1], made[0]]);
      assert.deepEqual(await store.cardUpdates.listBySubscription("other", 10), [made[2]]);
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
