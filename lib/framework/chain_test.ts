import assert from "node:assert/strict";
import { testApp } from "./testing.ts";
import type { Handler, Manifest } from "./types.ts";

/** A fixture: a root middleware `outer`, a `[lang]` one that counts, a route that counts. */
function fixture(outer: Handler) {
  const runs = { inner: 0, route: 0 };
  const manifest: Manifest = {
    routes: {
      "[lang]/_middleware.ts": {
        handler: (_req, ctx) => {
          runs.inner++;
          return ctx.next();
        },
      },
      "[lang]/page.ts": {
        handler: () => {
          runs.route++;
          return new Response("page");
        },
      },
      "_middleware.ts": { handler: outer },
    },
    islands: {},
  };
  return { runs, ...testApp(manifest) };
}

Deno.test("next(): a second call from the same middleware is an error, not a second run", async () => {
  const { runs, request } = fixture(async (_req, ctx) => {
    await ctx.next();
    try {
      return await ctx.next();
    } catch (e) {
      return new Response(`second call: ${(e as Error).message}`);
    }
  });
  const { text } = await request("/en/page");
  assert.equal(text, "second call: next() called multiple times");
  assert.deepEqual(runs, { inner: 1, route: 1 });

  // Uncaught, it reaches the app's error handler.
  const twice = fixture(async (_req, ctx) => {
    await ctx.next();
    return await ctx.next();
  });
  assert.equal((await twice.request("/en/page")).res.status, 500);
  assert.deepEqual(twice.errors, ["next() called multiple times"]);
  assert.deepEqual(twice.runs, { inner: 1, route: 1 });
});

Deno.test("next(): the same rule in the not-found fallback, and for a route handler", async () => {
  const { runs, request, errors } = fixture(async (_req, ctx) => {
    await ctx.next();
    return await ctx.next();
  });
  assert.equal((await request("/en/nope")).res.status, 500);
  assert.deepEqual(errors, ["next() called multiple times"]);
  assert.deepEqual(runs, { inner: 1, route: 0 });

  // The route's handler is the chain's last step: there is nothing for it to go on to.
  const manifest: Manifest = { routes: { "page.ts": { handler: (_req, ctx) => ctx.next() } }, islands: {} };
  const last = testApp(manifest);
  assert.equal((await last.request("/page")).res.status, 500);
  assert.deepEqual(last.errors, ["next() called multiple times"]);
});

Deno.test("next(): a middleware may answer without it, or hand on the promise without awaiting", async () => {
  const stop = fixture(() => new Response("stopped", { status: 403 }));
  const res = await stop.request("/en/page");
  assert.equal(res.res.status, 403);
  assert.equal(res.text, "stopped");
  assert.deepEqual(stop.runs, { inner: 0, route: 0 });

  const pass = fixture((_req, ctx) => ctx.next());
  assert.equal((await pass.request("/en/page")).text, "page");
  assert.equal((await pass.request("/en/page")).text, "page");
  assert.deepEqual(pass.runs, { inner: 2, route: 2 });
  assert.deepEqual(pass.errors, []);
});
