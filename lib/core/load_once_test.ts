import assert from "node:assert/strict";
import { loadOnce } from "./load_once.ts";

Deno.test("loadOnce: loads at the first call only, shares the promise, and tries again after a failure", async () => {
  let calls = 0;
  let fail = true;
  const get = loadOnce(() => {
    calls++;
    return fail ? Promise.reject(new Error("offline")) : Promise.resolve(calls);
  });
  assert.equal(calls, 0, "nothing loads before it is asked for");
  await assert.rejects(get(), /offline/);
  fail = false;
  const [a, b] = await Promise.all([get(), get()]);
  assert.deepEqual([a, b, calls], [2, 2, 2], "after the failure, one more load, shared");
  assert.equal(await get(), 2);
  assert.equal(calls, 2);
});
