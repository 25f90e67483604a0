/**
 * The storage contract for the store as a whole rather than one repository: `ping()` and `kind`,
 * `close()` (idempotent, also concurrently), and invalid arguments refused with a RangeError before
 * anything is written, whichever repository gets them.
 *
 * @module
 */

import assert from "node:assert/strict";
import { donorFixture, txFixture, uid } from "./fixtures.ts";
import { type ContractOptions, withStore } from "./support.ts";

/** The contract of the store itself: answering, closing, and refusing invalid arguments. */
export async function storeContract(t: Deno.TestContext, { kind, open }: ContractOptions): Promise<void> {
  await t.step("ping() answers, and kind names the backend", () =>
    withStore(open, async (store) => {
      await store.ping();
      assert.deepEqual(store.kind, kind);
    }));

  await t.step("close() is idempotent, also when called concurrently", async () => {
    const store = await open();
    await store.ping();
    await Promise.all([store.close(), store.close()]);
    await store.close();
  });

  await t.step(
    "invalid arguments reject with a RangeError and write nothing",
    () =>
      withStore(open, async (store) => {
        const key = uid("bad");
        await assert.rejects(() => store.throttle.record(key, 1_000, 0), RangeError);
        await assert.rejects(() => store.throttle.record(key, 1.5, 1_000), RangeError);
        await assert.rejects(() => store.throttle.recent(key, 1_000, -1), RangeError);
        assert.deepEqual(await store.throttle.recent(key, 1_000, 1_000), []);
        await assert.rejects(() => store.nonces.claim(key, Date.now() + 0.5), RangeError);
        assert.deepEqual(await store.nonces.claim(key, Date.now() + 60_000), true);
        const bad = txFixture({ createdAt: "yesterday" });
        await assert.rejects(() => store.transactions.record(bad), RangeError);
        await assert.rejects(() => store.transactions.record(txFixture({ amount: 1.5 })), RangeError);
        assert.deepEqual(await store.transactions.get(bad.id), null);
        const huge = txFixture({ resultData: { ...txFixture().resultData!, Blob: "x".repeat(70_000) } });
        await assert.rejects(() => store.transactions.record(huge), RangeError);
        assert.deepEqual(await store.transactions.get(huge.id), null);
        await assert.rejects(
          () => store.donors.create(donorFixture({ createdAt: "not a date" })),
          RangeError,
        );
      }),
  );
}
