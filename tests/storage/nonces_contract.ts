/**
 * The storage contract for nonces (`store.nonces`): a nonce claimed once while it lasts (also
 * under a race) and claimable again once expired; and the retention sweeps of nonces and throttle
 * events, one step for both (PostgreSQL deletes them; Deno KV expires them itself).
 *
 * @module
 */

import assert from "node:assert/strict";
import { T0, uid } from "./fixtures.ts";
import { type ContractOptions, sleep, withStore, withTwo } from "./support.ts";

/** The contract of `store.nonces`, and of the sweeps of nonces and throttle events. */
export async function noncesContract(
  t: Deno.TestContext,
  { kind, open, sharedData, fresh }: ContractOptions,
): Promise<void> {
  await t.step(
    "nonces: claim() is true once, false while it lasts, true again after it expired",
    () =>
      withStore(open, async (store) => {
        const nonce = uid("nonce");
        const later = Date.now() + 60_000;
        assert.deepEqual(await store.nonces.claim(nonce, later), true);
        assert.deepEqual(await store.nonces.claim(nonce, later), false);
        assert.deepEqual(await store.nonces.claim(nonce, later + 60_000), false);
        assert.deepEqual(await store.nonces.claim(uid("nonce"), later), true);

        const brief = uid("nonce");
        assert.deepEqual(await store.nonces.claim(brief, Date.now() + 150), true);
        assert.deepEqual(await store.nonces.claim(brief, Date.now() + 150), false);
        await sleep(200);
        assert.deepEqual(
          await store.nonces.claim(brief, Date.now() + 60_000),
          true,
          "an expired nonce was refused",
        );
        assert.deepEqual(await store.nonces.claim(brief, Date.now() + 60_000), false);
      }),
  );

  await t.step(
    "nonces: 10 concurrent claims of one nonce, exactly one true",
    () =>
      withTwo(open, sharedData, async (a, b) => {
        for (let round = 0; round < 3; round++) {
          const nonce = uid("nonce");
          const results = await Promise.all(
            Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).nonces.claim(nonce, Date.now() + 60_000)),
          );
          assert.deepEqual(results.filter(Boolean).length, 1, `results: ${results}`);
        }
      }),
  );

  // ---- retention ----

  await t.step(
    kind === "postgres"
      ? "throttle and nonces: deleteBefore() and deleteExpired() delete old events and expired claims"
      : "throttle and nonces: KV expires them itself, so the sweeps answer 0 and keep live ones",
    () =>
      withStore(fresh(), async (store) => {
        const [k1, k2] = [uid("throttle"), uid("throttle")];
        const window = 3_600_000;
        await store.throttle.record(k1, T0, window);
        await store.throttle.record(k1, T0 + 1000, window);
        await store.throttle.record(k2, T0 + 500, window);
        await store.throttle.record(k2, T0 + 2000, window);
        const now = Date.now();
        const live = uid("nonce");
        assert.ok(await store.nonces.claim(live, now + 600_000));
        const soon = uid("nonce");
        assert.ok(await store.nonces.claim(soon, now + 60_000));
        if (kind === "postgres") {
          assert.deepEqual(await store.throttle.deleteBefore(T0 + 1000, 10), 2);
          assert.deepEqual(await store.throttle.recent(k1, T0 + 2000, window), [T0 + 1000]);
          assert.deepEqual(await store.throttle.recent(k2, T0 + 2000, window), [T0 + 2000]);
          assert.deepEqual(await store.throttle.deleteBefore(T0 + 5000, 1), 1);
          assert.deepEqual(await store.throttle.deleteBefore(T0 + 5000, 10), 1);
          // Swept as if 2 minutes from now: the claim that has expired by then goes.
          assert.deepEqual(await store.nonces.deleteExpired(now + 120_000, 10), 1);
          assert.deepEqual(await store.nonces.deleteExpired(now + 120_000, 10), 0);
          assert.deepEqual(await store.nonces.claim(soon, now + 60_000), true, "claimable again");
        } else {
          assert.deepEqual(await store.throttle.deleteBefore(T0 + 5000, 10), 0);
          assert.deepEqual(await store.nonces.deleteExpired(now + 120_000, 10), 0);
          assert.deepEqual(await store.throttle.recent(k1, T0 + 2000, window), [T0, T0 + 1000]);
        }
        assert.deepEqual(await store.nonces.claim(live, now + 600_000), false, "a live claim stays");
        await assert.rejects(() => store.throttle.deleteBefore(T0, 1001), RangeError);
        await assert.rejects(() => store.nonces.deleteExpired(now, 0), RangeError);
      }),
  );
}
