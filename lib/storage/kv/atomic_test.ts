/**
 * {@link ImportBudget} and {@link keyBytes} against a real Deno KV: what the budget accepts commits
 * in one atomic operation, and one set more is refused by KV itself, for each of KV's limits. If a
 * Deno release changes a limit or the key encoding, this fails before an import does.
 *
 * @module
 */
import assert from "node:assert/strict";
import { ImportBudget, keyBytes, KV_LIMITS, loadSerialize } from "./atomic.ts";

Deno.test("keyBytes: the size Deno KV counts, up to its 2,048-byte key limit", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const fits = ["k", "x".repeat(2043)];
    assert.equal(keyBytes(fits), 2048);
    await kv.set(fits, 1);
    const tooLong = ["k", "x".repeat(2044)];
    assert.equal(keyBytes(tooLong), 2049);
    await assert.rejects(() => kv.set(tooLong, 1), /too large/i);
    assert.equal(keyBytes(["a\0b", 1]), 2 + 4 + 9, "a NUL is escaped as two bytes; a number is 9");
  } finally {
    kv.close();
  }
});

Deno.test("ImportBudget: what it takes fits one atomic operation, and one set more does not", async (t) => {
  await loadSerialize();
  const cases = [
    { limit: "mutations", key: (i: number) => ["item", i], value: "v", error: /too many mutations/i },
    {
      limit: "total size",
      key: (i: number) => ["item", i],
      value: "v".repeat(20_000),
      error: /total mutation size/i,
    },
    {
      limit: "key size",
      key: (i: number) => ["item", "k".repeat(2_000), i],
      value: "v",
      error: /total key size/i,
    },
  ];
  for (const { limit, key, value, error } of cases) {
    await t.step(limit, async () => {
      const kv = await Deno.openKv(":memory:");
      try {
        // Six checked counters, as transactions.import reserves.
        const counters: Deno.KvKey[] = Array.from({ length: 6 }, (_, i) => ["count", i]);
        const budget = new ImportBudget(counters);
        const sets: [Deno.KvKey, unknown][] = [];
        let next: [Deno.KvKey, unknown];
        while (budget.take([next = [key(sets.length), value]])) sets.push(next);
        assert.ok(sets.length > 1 && sets.length < KV_LIMITS.mutations);
        const op = (extra: [Deno.KvKey, unknown][]) => {
          const atomic = kv.atomic();
          for (const counter of counters) atomic.check({ key: counter, versionstamp: null });
          for (const [k, v] of [...sets, ...extra]) atomic.set(k, v);
          for (const counter of counters) atomic.set(counter, Number.MAX_SAFE_INTEGER);
          return atomic;
        };
        await assert.rejects(() => op([next]).commit(), error);
        assert.equal((await op([]).commit()).ok, true);
      } finally {
        kv.close();
      }
    });
  }
});
