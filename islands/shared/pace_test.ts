import assert from "node:assert/strict";
import { createPace } from "./pace.ts";

/** Frames driven by hand: each call to `nextFrame` waits until `frame()` is called. */
function frames() {
  const waiting: (() => void)[] = [];
  return {
    nextFrame: () => new Promise<void>((resolve) => waiting.push(resolve)),
    frame: async () => {
      waiting.splice(0).forEach((resolve) => resolve());
      // Let the queue's promise callbacks run.
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

Deno.test("pace: the first update runs at once, each later one after the next frame", async () => {
  const { nextFrame, frame } = frames();
  const pace = createPace(nextFrame);
  const ran: string[] = [];
  pace(() => ran.push("chart"));
  assert.deepEqual(ran, ["chart"], "synchronously");
  pace(() => ran.push("rows"));
  pace(() => ran.push("more rows"));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  assert.deepEqual(ran, ["chart"], "nothing more before a frame");
  await frame();
  assert.deepEqual(ran, ["chart", "rows"]);
  await frame();
  assert.deepEqual(ran, ["chart", "rows", "more rows"]);
  await frame();
  // Idle again: the next update runs at once.
  pace(() => ran.push("later"));
  assert.deepEqual(ran, ["chart", "rows", "more rows", "later"]);
});

Deno.test("pace: a failing update is reported and does not hold the ones after it", async () => {
  const { nextFrame, frame } = frames();
  const pace = createPace(nextFrame);
  const ran: string[] = [];
  const reported: unknown[] = [];
  const report = globalThis.reportError;
  globalThis.reportError = (e: unknown) => reported.push(e);
  try {
    assert.throws(() =>
      pace(() => {
        throw new Error("first");
      }), /first/);
    pace(() => {
      throw new Error("second");
    });
    pace(() => ran.push("third"));
    await frame();
    await frame();
    assert.deepEqual(ran, ["third"]);
    assert.equal((reported[0] as Error).message, "second");
  } finally {
    globalThis.reportError = report;
  }
});
