import assert from "node:assert/strict";
import { Hono } from "hono";
import { requestTimeout, RequestTimeoutError } from "./timeout.ts";

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
