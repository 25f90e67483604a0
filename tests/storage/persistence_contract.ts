/**
 * The storage contract for data that outlives a store: what one store wrote, another opened later
 * on the same data reads back. The runner runs it after the other parts, for Deno KV on a file
 * only: there the store itself creates the file, folders included (a `:memory:` store keeps
 * nothing).
 *
 * @module
 */

import assert from "node:assert/strict";
import { type ContractOptions, withStore } from "./support.ts";

/** The contract of reopening: `open` must answer stores on the same data each time. */
export async function persistenceContract(t: Deno.TestContext, { open }: ContractOptions): Promise<void> {
  await t.step("data survives closing and reopening the file", async () => {
    const written = await withStore(open, async (store) => {
      await store.flags.seed({ "persist.SEEDED": true });
      return await store.flags.set("persist.SET", true);
    });
    await withStore(open, async (store) => {
      assert.deepEqual(await store.flags.get("persist.SET"), written);
      assert.deepEqual((await store.flags.get("persist.SEEDED"))?.enabled, true);
    });
  });
}
