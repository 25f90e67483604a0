/**
 * The storage contract for leases (`store.leases`), which let one instance at a time run a job:
 * acquired when free, expired or already held, released only by the holder, and exactly one
 * winner of concurrent acquires.
 *
 * @module
 */

import assert from "node:assert/strict";
import { T0, uid } from "./fixtures.ts";
import { type ContractOptions, race, withStore, withTwo } from "./support.ts";

/** The contract of `store.leases`. */
export async function leasesContract(
  t: Deno.TestContext,
  { open, sharedData }: ContractOptions,
): Promise<void> {
  await t.step(
    "leases: acquire() when free, expired or the holder's own; release() only by the holder",
    () =>
      withStore(open, async (store) => {
        const name = uid("lease");
        assert.deepEqual(await store.leases.acquire(name, "A", T0, 1000), true);
        assert.deepEqual(await store.leases.acquire(name, "B", T0 + 500, 1000), false);
        assert.deepEqual(await store.leases.acquire(name, "A", T0 + 900, 1000), true, "renewal");
        assert.deepEqual(
          await store.leases.acquire(name, "B", T0 + 1899, 1000),
          false,
          "renewed until T0 + 1900",
        );
        assert.deepEqual(await store.leases.acquire(name, "B", T0 + 1900, 1000), true, "expired");
        assert.deepEqual(await store.leases.acquire(name, "A", T0 + 2000, 1000), false);
        // Another name is another lease.
        assert.deepEqual(await store.leases.acquire(`${name}.other`, "A", T0 + 2000, 1000), true);
        // Only the holder gives it up.
        await store.leases.release(name, "A");
        assert.deepEqual(await store.leases.acquire(name, "A", T0 + 2100, 1000), false);
        await store.leases.release(name, "B");
        assert.deepEqual(await store.leases.acquire(name, "A", T0 + 2100, 1000), true);
        await store.leases.release(uid("lease"), "A");
      }),
  );

  await t.step(
    "leases: 10 concurrent acquires by different holders (two instances): exactly one true",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        const name = uid("lease");
        const results = await race(a, b, 10, (store, i) =>
          store.leases.acquire(name, `holder${i}`, T0, 60_000));
        assert.deepEqual(results.filter(Boolean).length, 1);
        const winner = `holder${results.indexOf(true)}`;
        assert.deepEqual(await a.leases.acquire(name, winner, T0 + 1, 60_000), true);
        // After it expires, again exactly one of many.
        const later = await race(a, b, 10, (store, i) =>
          store.leases.acquire(name, `late${i}`, T0 + 60_001, 60_000));
        assert.deepEqual(later.filter(Boolean).length, 1);
      }),
  );
}
