import assert from "node:assert/strict";
import { Hono } from "hono";
import { Deadlines, requestTimeout, RequestTimeoutError } from "./timeout.ts";

function app(limit: number, work: () => Promise<void>) {
  const app = new Hono();
  app.use(requestTimeout(() => limit));
  app.get("/", async (c) => {
    await work();
    return c.text("done");
  });
  app.onError((err, c) => c.text(err instanceof RequestTimeoutError ? "timeout" : "other", 503));
  return app;
}

Deno.test("request timeout: a request past its limit fails with RequestTimeoutError, in time", async () => {
  let release: () => void = () => {};
  const slow = app(50, () => new Promise<void>((resolve) => release = resolve));
  const started = performance.now();
  const res = await slow.request("/");
  const ms = performance.now() - started;
  assert.equal(res.status, 503);
  assert.equal(await res.text(), "timeout");
  assert.ok(ms >= 45 && ms < 1000, `answered after ${ms} ms`);
  release();
});

Deno.test("request timeout: a request within its limit is answered as usual, and no timer is left", async () => {
  const quick = app(1000, () => Promise.resolve());
  const res = await quick.request("/");
  assert.equal(res.status, 200);
  assert.equal(await res.text(), "done");
});

Deno.test("request timeout: errors of the handler pass through unchanged", async () => {
  const failing = app(1000, () => Promise.reject(new Error("boom")));
  const res = await failing.request("/");
  assert.equal(await res.text(), "other");
});

Deno.test("deadlines: each request expires at its own limit, in order, and the others go on", async () => {
  const deadlines = new Deadlines();
  const never = () => new Promise<void>(() => {});
  const started = performance.now();
  const outcome = (ms: number, work: () => Promise<unknown>) =>
    deadlines.within(ms, work).then(
      () => ({ ms, result: "done", after: performance.now() - started }),
      (e) => ({ ms, result: e instanceof RequestTimeoutError ? `timeout ${e.ms}` : "other", after: 0 }),
    );
  const results = await Promise.all([
    outcome(120, never),
    outcome(40, never),
    outcome(40, never),
    outcome(1000, () => new Promise((r) => setTimeout(r, 80))),
    outcome(60, () => Promise.resolve("quick")),
  ]);
  assert.deepEqual(results.map((r) => r.result), ["timeout 120", "timeout 40", "timeout 40", "done", "done"]);
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 115 && elapsed < 1000, `the slowest deadline after ${elapsed} ms`);
  assert.ok(results[3].after >= 75, "the work within its limit ran to its end");
});

Deno.test("deadlines: a request that ends first leaves nothing behind (no timer, no entry)", async () => {
  const deadlines = new Deadlines();
  for (let i = 0; i < 100; i++) assert.equal(await deadlines.within(45_000, () => Promise.resolve(i)), i);
  // The test's sanitizer fails it if a timer is still pending here.
});

Deno.test("deadlines: a shorter limit arriving later takes the timer; nothing is left pending after", async () => {
  const deadlines = new Deadlines();
  const long = deadlines.within(60_000, () => new Promise((r) => setTimeout(r, 30)));
  const short = deadlines.within(20, () => new Promise<void>(() => {}));
  await assert.rejects(short, RequestTimeoutError);
  await long;
  // The sanitizer fails this test if the 60 s timer were still pending and referenced.
});
