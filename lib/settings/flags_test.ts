import assert from "node:assert/strict";
import { PAGE_FLAGS_MAX_AGE_MS, readFlagsForPages } from "./flags.ts";
import type { Store } from "@/lib/storage/types.ts";

/** A store whose flag list counts its reads and can be told to fail. */
function fakeStore() {
  const state = { reads: 0, monthly: true, fail: false };
  const store = {
    flags: {
      list: () => {
        state.reads++;
        if (state.fail) return Promise.reject(new Error("storage down"));
        return Promise.resolve([
          { flag: "MONTHLY_PAYMENT", enabled: state.monthly, updatedAt: new Date(0).toISOString() },
        ]);
      },
    },
  } as unknown as Store;
  return { store, state };
}

Deno.test("readFlagsForPages: one storage read per interval, shared by concurrent requests", async () => {
  const { store, state } = fakeStore();
  const t0 = 1_000_000;
  const [a, b] = await Promise.all([readFlagsForPages(store, t0), readFlagsForPages(store, t0 + 1)]);
  assert.deepEqual(a, { MONTHLY_PAYMENT: true, TEST_TERMINAL_PAYMENT: false });
  assert.equal(b, a);
  assert.equal(state.reads, 1);
  state.monthly = false;
  assert.equal((await readFlagsForPages(store, t0 + PAGE_FLAGS_MAX_AGE_MS - 1)).MONTHLY_PAYMENT, true);
  assert.equal((await readFlagsForPages(store, t0 + PAGE_FLAGS_MAX_AGE_MS)).MONTHLY_PAYMENT, false);
  assert.equal(state.reads, 2);
  // Each store has its own.
  const other = fakeStore();
  await readFlagsForPages(other.store, t0);
  assert.equal(other.state.reads, 1);
});

Deno.test("readFlagsForPages: a failed read is not kept", async () => {
  const { store, state } = fakeStore();
  state.fail = true;
  await assert.rejects(async () => await readFlagsForPages(store, 5_000), /storage down/);
  state.fail = false;
  assert.equal((await readFlagsForPages(store, 5_001)).MONTHLY_PAYMENT, true);
  assert.equal(state.reads, 2);
});

Deno.test("readFlagsForPages: once read, the flags themselves (no promise to wait for) until the interval ends", async () => {
  const { store } = fakeStore();
  const t0 = 50_000;
  assert.ok(readFlagsForPages(store, t0) instanceof Promise, "the first read waits for storage");
  await readFlagsForPages(store, t0 + 1);
  const held = readFlagsForPages(store, t0 + 2);
  assert.ok(!(held instanceof Promise), "then the flags are at hand");
  assert.equal(typeof (held as { MONTHLY_PAYMENT: boolean }).MONTHLY_PAYMENT, "boolean");
  assert.ok(
    readFlagsForPages(store, t0 + PAGE_FLAGS_MAX_AGE_MS) instanceof Promise,
    "a new interval reads again",
  );
});
