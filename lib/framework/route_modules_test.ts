import assert from "node:assert/strict";
import { h } from "preact";
import { preloadRoutes, RouteModules } from "./route_modules.ts";
import { testApp } from "./testing.ts";
import type { LayoutProps, LazyManifest, PageProps, RouteFileModule } from "./types.ts";

const App = ({ Component }: LayoutProps) => h("html", null, h(Component, null));
const Page = ({ url }: PageProps) => h("main", null, url.pathname);

/**
 * A lazy manifest of these modules: each loader logs its file in `loads`; a file in `failing`
 * fails once, then loads.
 */
function lazyManifest(loads: string[], failing: Set<string> = new Set()): LazyManifest {
  const modules: Record<string, RouteFileModule> = {
    "[lang]/_middleware.ts": { handler: (_req, ctx) => ctx.next() },
    "[lang]/deep/page.tsx": { default: Page },
    "[lang]/index.tsx": { default: Page },
    "[lang]/success.tsx": { default: Page },
    "_404.tsx": { default: Page },
    "_app.tsx": { default: App },
    "api/_middleware.ts": { handler: (_req, ctx) => ctx.next() },
    "api/items.ts": { handler: { GET: () => Response.json([]) } },
  };
  const routes = Object.fromEntries(
    Object.entries(modules).map(([file, mod]) => [file, () => {
      loads.push(file);
      if (failing.delete(file)) return Promise.reject(new Error(`cannot load ${file}`));
      return Promise.resolve(mod);
    }]),
  );
  return { routes, islands: {} };
}

Deno.test("lazy manifest: a route's modules load on its first request, once, with its folders'", async () => {
  const loads: string[] = [];
  const { request } = testApp(lazyManifest(loads));
  // The shell (`_app`, `_404`, layouts) starts loading at mount; no route module does.
  assert.deepEqual(loads, ["_app.tsx", "_404.tsx"]);
  loads.length = 0;
  const [a, b] = await Promise.all([request("/en/success"), request("/he/success")]);
  assert.equal(a.text, "<!DOCTYPE html><html><main>/en/success</main></html>");
  assert.equal(b.res.status, 200);
  assert.deepEqual(loads, ["[lang]/success.tsx", "[lang]/_middleware.ts"]);
  await request("/en/success");
  assert.deepEqual(loads, ["[lang]/success.tsx", "[lang]/_middleware.ts"]);
  // A path no route matched loads no route module: its folders' middlewares only.
  loads.length = 0;
  assert.equal((await request("/api/nope")).res.status, 404);
  assert.equal((await request("/en/nope")).res.status, 404);
  assert.deepEqual(loads, []);
  // A method the module does not answer is known once it is loaded.
  const post = await request("/api/items", { method: "POST" });
  assert.equal(post.res.status, 405);
  assert.deepEqual(loads, ["api/items.ts", "api/_middleware.ts"]);
});

Deno.test("lazy manifest: a failed load is retried on the next request", async () => {
  const loads: string[] = [];
  const failing = new Set(["[lang]/index.tsx", "_app.tsx"]);
  const { request, errors } = testApp(lazyManifest(loads, failing));
  // The shell's load, started at mount, fails: no unhandled rejection, and the next request retries.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const first = await request("/en");
  assert.equal(first.res.status, 500);
  assert.deepEqual(errors, ["cannot load [lang]/index.tsx"]);
  const second = await request("/en");
  assert.equal(second.res.status, 200);
  assert.equal(second.text, "<!DOCTYPE html><html><main>/en</main></html>");
  assert.equal(loads.filter((f) => f === "[lang]/index.tsx").length, 2);
  assert.equal(loads.filter((f) => f === "_app.tsx").length, 2);
});

Deno.test("preloadRoutes: loads the chosen routes, shortest patterns first, errors left to requests", async () => {
  const loads: string[] = [];
  const failing = new Set(["[lang]/success.tsx"]);
  const { app, request, errors } = testApp(lazyManifest(loads, failing));
  loads.length = 0;
  await preloadRoutes(app, (file) => file.startsWith("[lang]/"));
  assert.deepEqual(loads, [
    "[lang]/index.tsx",
    "[lang]/_middleware.ts",
    "[lang]/success.tsx",
    "[lang]/deep/page.tsx",
  ]);
  loads.length = 0;
  assert.equal((await request("/en/deep/page")).res.status, 200);
  assert.equal((await request("/en/success")).res.status, 200); // loaded again: the preload failed
  assert.deepEqual(loads, ["[lang]/success.tsx"]);
  assert.deepEqual(errors, []);
  // Nothing to do for an app nothing was mounted on.
  await preloadRoutes({}, () => true);
});

Deno.test("RouteModules: a manifest of modules is loaded at once; a lazy one shares a load", async () => {
  const eager = new RouteModules({ "a.ts": { handler: () => new Response() } });
  assert.equal(eager.isLazy("a.ts"), false);
  assert.equal(eager.load(["a.ts"]), null);
  assert.ok(eager.get("a.ts"));

  let calls = 0;
  const mod = { handler: () => new Response() };
  const lazy = new RouteModules({ "a.ts": () => (calls++, Promise.resolve(mod)) });
  assert.equal(lazy.isLazy("a.ts"), true);
  assert.equal(lazy.get("a.ts"), undefined);
  await Promise.all([lazy.load(["a.ts"]), lazy.load(["a.ts"])]);
  assert.equal(calls, 1);
  assert.equal(lazy.get("a.ts"), mod);
  assert.equal(lazy.load(["a.ts"]), null);
});
