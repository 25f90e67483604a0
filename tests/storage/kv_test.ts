/**
 * Deno KV on its own, outside the contract every backend meets: opening a file an earlier version
 * wrote fills in what that version did not keep (the error sub-lists, the time indexes), once; and
 * `openStore()` opens KV when no database URL is given.
 *
 * @module
 */

import { openStore } from "@/lib/storage/mod.ts";
import { listsOf } from "@/lib/storage/queries.ts";
import assert from "node:assert/strict";
import { openKvStore } from "./backends.ts";
import {
  at,
  donorFixture,
  legacyFixtures,
  paymentFixture,
  sandboxFixture,
  tokenFixture,
  txFixture,
  uid,
} from "./fixtures.ts";
import { listsSeen, withStore } from "./support.ts";

Deno.test("kv: opening a store written before errors had sub-lists fills them in, once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kv_migration_" });
  const path = `${dir}/old.kv`;
  const txs = legacyFixtures(1_800);
  try {
    // The keys the earlier version wrote: records, idempotency keys, four lists and their counters.
    const kv = await Deno.openKv(path);
    try {
      const counts = new Map<string, number>();
      for (let i = 0; i < txs.length; i += 20) {
        const op = kv.atomic();
        for (const tx of txs.slice(i, i + 20)) {
          op.set(["transactions", tx.id], tx);
          op.set(["transactions_by_provider", tx.provider, tx.providerTransactionId!], tx.id);
          const lists = tx.kind === "error" ? ["error-all"] : listsOf(tx);
          for (const list of lists) {
            const seq = (counts.get(list) ?? 0) + 1;
            counts.set(list, seq);
            op.set(["transactions_list", list, seq], tx).set(["transactions_count", list], seq);
          }
        }
        assert.ok((await op.commit()).ok);
      }
    } finally {
      kv.close();
    }

    const expected = await withStore(() => openKvStore(":memory:"), async (store) => {
      for (let i = 0; i < txs.length; i += 1000) await store.transactions.import(txs.slice(i, i + 1000));
      return await listsSeen(store);
    });
    assert.deepEqual(expected["error true undefined"].total, 300);
    await withStore(() => openKvStore(path), async (store) => {
      assert.deepEqual(await listsSeen(store), expected);
      // Sequences continue: a new monthly error goes first in its lists.
      const late = txFixture({ kind: "error", isMonthly: true, createdAt: at(9_999_000) });
      await store.transactions.record(late);
      const page = await store.transactions.listErrors({ page: 1, limit: 1, isMonthly: true });
      assert.deepEqual(page, { data: [late], total: 301 });
    });
    // Reopening finds the migration done and changes nothing.
    await withStore(() => openKvStore(path), async (store) => {
      assert.deepEqual(
        (await store.transactions.listErrors({ page: 1, limit: 1, isMonthly: true })).total,
        301,
      );
      assert.deepEqual(
        (await store.transactions.listErrors({ page: 1, limit: 1, isMonthly: false })).total,
        300,
      );
    });
    const kv2 = await Deno.openKv(path);
    try {
      assert.deepEqual((await kv2.get(["kv_migrations", "error-sub-lists"])).value, {
        through: 600,
        done: true,
      });
    } finally {
      kv2.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kv: opening a store written before the time indexes fills them in, once", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kv_time_indexes_" });
  const path = `${dir}/old.kv`;
  // More of each than one migration commit covers (90).
  const pending = Array.from(
    { length: 100 },
    (_, i) => paymentFixture({ createdAt: at(i), updatedAt: at(i) }),
  );
  // More finished payments than one commit reads (1,000); they need no index key.
  const finished = Array.from(
    { length: 1_100 },
    (_, i) => paymentFixture({ createdAt: at(i), status: "failed" }),
  );
  const tokens = Array.from({ length: 95 }, (_, i) => tokenFixture({ expiresAt: at(i * 1000) }));
  const families = Array.from({ length: 95 }, () => uid("family"));
  const records = Array.from({ length: 180 }, (_, i) => sandboxFixture({ updatedAt: at(i) }));
  try {
    // The keys the earlier version wrote, without the time indexes.
    const kv = await Deno.openKv(path);
    try {
      const writes: [Deno.KvKey, unknown][] = [
        ...[...pending, ...finished].map((p): [Deno.KvKey, unknown] => [["payments", p.id], p]),
        ...tokens.map((t): [Deno.KvKey, unknown] => [["refresh_tokens", t.hash], t]),
        ...families.map((f, i): [Deno.KvKey, unknown] => [["refresh_families_revoked", f], {
          revokedAt: at(i * 1000),
        }]),
        ...records.flatMap((r): [Deno.KvKey, unknown][] => [
          [["sandbox", r.ref], r],
          [["sandbox_by_reference", r.reference, r.createdAt, r.ref], r.ref],
        ]),
      ];
      for (let i = 0; i < writes.length; i += 100) {
        const op = kv.atomic();
        for (const [key, value] of writes.slice(i, i + 100)) op.set(key, value);
        assert.ok((await op.commit()).ok);
      }
    } finally {
      kv.close();
    }

    await withStore(() => openKvStore(path), async (store) => {
      const range = { from: at(-1), to: at(1_000_000) };
      assert.deepEqual(
        (await store.payments.listPending(range, 1000)).map((p) => p.id),
        pending.map((p) => p.id),
      );
      assert.deepEqual(
        (await store.sandbox.listUpdatedBefore(at(1_000_000), 1000)).map((r) => r.ref),
        records.map((r) => r.ref),
      );
      // Tokens expired before 50 s and families revoked before it: 50 of each.
      assert.deepEqual(await store.refreshTokens.deleteExpired(at(50_000), 1000), 50);
      assert.deepEqual(await store.refreshTokens.get(tokens[49].hash), null);
      assert.deepEqual(await store.refreshTokens.get(tokens[50].hash), tokens[50]);
      assert.deepEqual(await store.refreshTokens.deleteRevokedBefore(at(50_000), 1000), 50);
      assert.deepEqual(await store.refreshTokens.isFamilyRevoked(families[49]), false);
      assert.deepEqual(await store.refreshTokens.isFamilyRevoked(families[50]), true);
    });
    // Reopening finds the migration done: nothing indexed twice, nothing back.
    await withStore(() => openKvStore(path), async (store) => {
      assert.deepEqual(await store.refreshTokens.deleteExpired(at(50_000), 1000), 0);
      assert.deepEqual(
        (await store.payments.listPending({ from: at(-1), to: at(1_000_000) }, 1000)).length,
        100,
      );
    });
    const kv2 = await Deno.openKv(path);
    try {
      assert.deepEqual((await kv2.get(["kv_migrations", "time-indexes"])).value, {
        stage: 4,
        after: null,
        done: true,
      });
    } finally {
      kv2.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kv: a refresh token written before families had a start reads back with its own creation", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kv_family_start_" });
  const path = `${dir}/old.kv`;
  try {
    const { familyStartedAt: _, ...legacy } = tokenFixture({ createdAt: at(5_000) });
    const kv = await Deno.openKv(path);
    await kv.set(["refresh_tokens", legacy.hash], legacy);
    kv.close();
    await withStore(() => openKvStore(path), async (store) => {
      assert.deepEqual(await store.refreshTokens.get(legacy.hash), { ...legacy, familyStartedAt: at(5_000) });
      assert.equal(await store.refreshTokens.markUsed(legacy.hash, at(6_000)), true);
      assert.deepEqual(await store.refreshTokens.get(legacy.hash), {
        ...legacy,
        familyStartedAt: at(5_000),
        usedAt: at(6_000),
      });
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kv: a donor written before the Israeli ID number existed reads back with none, and keeps none", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kv_donor_israeli_id_" });
  const path = `${dir}/old.kv`;
  try {
    const { israeliId: _, ...legacy } = donorFixture();
    const kv = await Deno.openKv(path);
    await kv.set(["donors", legacy.id], legacy);
    kv.close();
    await withStore(() => openKvStore(path), async (store) => {
      assert.deepEqual(await store.donors.get(legacy.id), { ...legacy, israeliId: null });
      const paid = await store.donors.update(legacy.id, { paymentDate: at(7_000) });
      assert.deepEqual(paid, { ...legacy, paymentDate: at(7_000), israeliId: null });
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openStore() opens KV when no databaseUrl is given (or it is empty)", async () => {
  for (const databaseUrl of [undefined, ""]) {
    await withStore(() => openStore({ databaseUrl, kvPath: ":memory:" }), async (store) => {
      assert.deepEqual(store.kind, "kv");
      await store.ping();
    });
  }
});
