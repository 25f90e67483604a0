import assert from "node:assert/strict";
import { h } from "preact";
import { testApp, type TestState } from "./testing.ts";
import type { Handler, LayoutProps, Manifest, PageProps } from "./types.ts";

/** A middleware that logs `name>` before the rest of the chain and `<name` after it. */
const logged = (log: string[], name: string): Handler<unknown, TestState> => async (_req, ctx) => {
  log.push(`${name}>`);
  const res = await ctx.next();
  log.push(`<${name}`);
  return res;
};
const App = ({ Component }: LayoutProps) => h("html", null, h("body", null, h(Component, null)));
const layout = (name: string) => ({ Component }: LayoutProps) =>
  h("div", { class: name }, h(Component, null));
const Page = ({ params, status }: PageProps) => h("main", null, `page ${params.lang} ${status}`);
const NotFound = ({ params, status }: PageProps) => h("p", null, `missing ${params.lang} ${status}`);
const doc = (inner: string) => `<!DOCTYPE html><html><body>${inner}</body></html>`;

Deno.test("middlewares: outer folders first, a list in its order, code after next() in reverse", async () => {
  const log: string[] = [];
  const manifest: Manifest = {
    // Inner folders listed first, as in the generated manifest (`[` sorts before `_`).
    routes: {
      "[lang]/_middleware.ts": { handler: logged(log, "lang") },
      "[lang]/admin/_middleware.ts": { handler: logged(log, "admin") },
      "[lang]/admin/index.ts": { handler: () => new Response("admin") },
      "[lang]/items/[id].ts": {
        handler: {
          GET(_req, ctx) {
            log.push(`handler ${ctx.params.lang} ${ctx.params.id} ${ctx.state.seen}`);
            return new Response("item");
          },
        },
      },
      "_middleware.ts": {
        handler: [logged(log, "root1"), (_req, ctx) => {
          ctx.state.seen = "root2";
          return logged(log, "root2")(_req, ctx);
        }],
      },
      "api/_middleware.ts": { handler: logged(log, "api") },
    },
    islands: {},
  };
  const { request } = testApp(manifest);
  const item = await request("/en/items/42");
  assert.equal(item.text, "item");
  assert.deepEqual(log, ["root1>", "root2>", "lang>", "handler en 42 root2", "<lang", "<root2", "<root1"]);
  log.length = 0;
  await request("/he/admin");
  assert.deepEqual(log, ["root1>", "root2>", "lang>", "admin>", "<admin", "<lang", "<root2", "<root1"]);
});

Deno.test("layouts: the folders' layouts wrap the page outer first, `_app` outermost", async () => {
  const manifest: Manifest = {
    routes: {
      "[lang]/_layout.tsx": { default: layout("lang") },
      "[lang]/page.tsx": { default: Page },
      "_app.tsx": { default: App },
      "_layout.tsx": { default: layout("root") },
      "other/_layout.tsx": { default: layout("other") },
    },
    islands: {},
  };
  const { request } = testApp(manifest);
  const { res, text } = await request("/en/page");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.equal(res.headers.get("x-request-id"), "r1");
  assert.equal(text, doc(`<div class="root"><div class="lang"><main>page en 200</main></div></div>`));
});

function notFoundManifest(log: string[]): Manifest {
  return {
    routes: {
      "[lang]/_layout.tsx": { default: layout("lang") },
      "[lang]/_middleware.ts": {
        handler: (_req, ctx) => {
          log.push(`lang ${ctx.params.lang}`);
          return ctx.params.lang === "en"
            ? ctx.next()
            : new Response(null, { status: 302, headers: { location: "/en/" } });
        },
      },
      "[lang]/gone.ts": { handler: { GET: (_req, ctx) => ctx.renderNotFound() } },
      "[lang]/page.tsx": { default: Page },
      "_404.tsx": { default: NotFound },
      "_app.tsx": { default: App },
      "_layout.tsx": { default: layout("root") },
      "api/items.ts": { handler: { GET: () => Response.json([1]) } },
      "other/_layout.tsx": { default: layout("other") },
    },
    islands: {},
  };
}

Deno.test("_404: an unknown page path gets the not-found page in its folders' layouts, after their middlewares", async () => {
  const log: string[] = [];
  const { request } = testApp(notFoundManifest(log));
  const page = doc(`<div class="root"><div class="lang"><p>missing en 404</p></div></div>`);
  for (const path of ["/en/nope", "/en/a/b/c", "/en/gone"]) {
    const { res, text } = await request(path);
    assert.equal(res.status, 404, path);
    assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8", path);
    assert.ok(res.headers.get("x-request-id"), path);
    assert.equal(text, page, path);
  }
  assert.deepEqual(log, ["lang en", "lang en", "lang en"]);
  // The `[lang]` middleware runs for a path no route has, and may answer instead.
  const fr = await request("/fr/nope");
  assert.equal(fr.res.status, 302);
  assert.equal(fr.res.headers.get("location"), "/en/");
  // Outside `[lang]`: the root layout only.
  const top = await request("/");
  assert.equal(top.res.status, 404);
  assert.equal(top.text, doc(`<div class="root"><p>missing undefined 404</p></div>`));
});

Deno.test("JSON prefix: 404 and 405 answer JSON, and a miss runs no folder middleware", async () => {
  const log: string[] = [];
  const { request } = testApp(notFoundManifest(log));
  const missing = await request("/api/nope");
  assert.equal(missing.res.status, 404);
  assert.deepEqual(JSON.parse(missing.text), { message: "Not found", statusCode: 404 });
  const post = await request("/api/items", { method: "POST" });
  assert.equal(post.res.status, 405);
  assert.equal(post.res.headers.get("allow"), "GET, HEAD");
  assert.deepEqual(JSON.parse(post.text), {
    message: "Method POST is not allowed here; allowed: GET, HEAD",
    statusCode: 405,
  });
  assert.deepEqual(log, []);

  const custom = testApp(notFoundManifest(log), {
    jsonError: (status, message) => ({ status, error: message }),
  });
  assert.deepEqual(JSON.parse((await custom.request("/api/x")).text), { status: 404, error: "Not found" });
});

Deno.test("405 outside a JSON prefix: plain text with the Allow header, HEAD allowed with GET", async () => {
  const manifest: Manifest = {
    routes: {
      "any.ts": { handler: (req) => new Response(req.method) },
      "form.tsx": { default: Page, handler: { POST: () => new Response("posted") } },
      "hook.ts": { handler: { POST: () => new Response("ok"), PUT: () => new Response("ok") } },
    },
    islands: {},
  };
  const { request } = testApp(manifest);
  const form = await request("/form", { method: "DELETE" });
  assert.equal(form.res.status, 405);
  assert.equal(form.res.headers.get("allow"), "GET, POST, HEAD");
  assert.equal(form.res.headers.get("content-type"), "text/plain; charset=utf-8");
  assert.equal(form.text, "Method DELETE is not allowed here; allowed: GET, POST, HEAD");
  assert.equal((await request("/form", { method: "POST" })).text, "posted");
  const hook = await request("/hook");
  assert.equal(hook.res.status, 405);
  assert.equal(hook.res.headers.get("allow"), "POST, PUT");
  assert.equal((await request("/hook", { method: "HEAD" })).res.status, 405);
  // A handler function answers every method.
  assert.equal((await request("/any", { method: "PATCH" })).text, "PATCH");
});

Deno.test("HEAD is answered as GET, without a body, with the context's headers", async () => {
  const methods: string[] = [];
  const manifest: Manifest = {
    routes: {
      "_app.tsx": { default: App },
      "data.ts": {
        handler: {
          GET(req) {
            methods.push(req.method);
            return new Response("body", { headers: { "x-own": "1" } });
          },
        },
      },
      "page.tsx": { default: Page },
    },
    islands: {},
  };
  const { request } = testApp(manifest);
  const page = await request("/page", { method: "HEAD" });
  assert.equal(page.res.status, 200);
  assert.equal(page.text, "");
  assert.equal(page.res.headers.get("content-type"), "text/html; charset=utf-8");
  const head = await request("/data", { method: "HEAD" });
  assert.equal(head.res.status, 200);
  assert.equal(head.text, "");
  assert.equal(head.res.headers.get("x-own"), "1");
  assert.equal(head.res.headers.get("x-request-id"), "r2");
  const get = await request("/data");
  assert.equal(get.text, "body");
  assert.equal(get.res.headers.get("x-request-id"), "r3");
  assert.deepEqual(methods, ["HEAD", "GET"]);
});

Deno.test("reserved prefixes: never reach a route or folder middleware outside them; a miss is plain", async () => {
  const log: string[] = [];
  const manifest: Manifest = {
    routes: {
      "[lang]/index.tsx": { default: Page },
      "_404.tsx": { default: NotFound },
      "_middleware.ts": { handler: logged(log, "root") },
      "static/info.ts": { handler: () => new Response("info") },
    },
    islands: {},
  };
  const { request } = testApp(manifest, { reservedPrefixes: ["/_app", "/static"] });
  for (const path of ["/_app", "/_app/x.js", "/static/nope"]) {
    const { res, text } = await request(path);
    assert.equal(res.status, 404, path);
    assert.equal(text, "Not found", path);
    assert.equal(res.headers.get("content-type"), "text/plain; charset=UTF-8", path);
  }
  assert.deepEqual(log, []);
  const api = await request("/api"); // `/:lang` does not take it: JSON prefixes are reserved too
  assert.deepEqual(JSON.parse(api.text), { message: "Not found", statusCode: 404 });
  // A route under a reserved prefix is its own, with the folder middlewares it has.
  assert.equal((await request("/static/info")).text, "info");
  assert.equal((await request("/en")).res.status, 200);
  assert.deepEqual(log, ["root>", "<root", "root>", "<root"]);
});

Deno.test("ctx.render without a page component is an error; so is a route with neither", async () => {
  const manifest: Manifest = {
    routes: {
      "_middleware.ts": { handler: (req, ctx) => new URL(req.url).search ? ctx.render() : ctx.next() },
      "hook.ts": { handler: { GET: (_req, ctx) => ctx.render() } },
    },
    islands: {},
  };
  const { request, errors } = testApp(manifest);
  assert.equal((await request("/hook")).res.status, 500);
  assert.equal(errors[0], "routes/hook.ts: has no page component to render");
  assert.equal((await request("/nope?x")).res.status, 500);
  assert.equal(errors[1], "routes/(no route matched): has no page component to render");
  assert.throws(
    () => testApp({ routes: { "bad.ts": {} }, islands: {} }),
    /routes\/bad.ts: exports neither a handler nor a page/,
  );
});
