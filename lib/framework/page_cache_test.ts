import assert from "node:assert/strict";
import { Hono } from "hono";
import { h } from "preact";
import { PageCache } from "./page_cache.ts";
import { mountRoutes } from "./server.ts";
import type { Handlers, LayoutProps, Manifest, PageProps } from "./types.ts";

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

Deno.test("PageCache: cuts at text and number slots and fills in each response's values", () => {
  const cache = new PageCache();
  const html = `<p title="${cache.slots.text("a")}">` +
    JSON.stringify({ n: cache.slots.number("n"), a: cache.slots.text("a") }) + "</p>";
  const template = cache.cut(html, ["a", "n"]);
  assert.deepEqual(template.names, ["a", "n", "a"]);
  assert.equal(
    decode(cache.fill(template, { a: "v1.x", n: "1790000000000" })),
    '<p title="v1.x">{"n":1790000000000,"a":"v1.x"}</p>',
  );
  // Non-ASCII text survives the byte join.
  const he = cache.cut(`<p>שלום ${cache.slots.text("a")} ✓</p>`, ["a"]);
  assert.equal(decode(cache.fill(he, { a: "k" })), "<p>שלום k ✓</p>");
});

Deno.test("PageCache: refuses values that would need escaping, missing values and missing slots", () => {
  const cache = new PageCache();
  const template = cache.cut(`<a href="${cache.slots.text("v")}">`, ["v"]);
  for (const bad of ['"><script>', "a b", "&amp;", "<", "'"]) {
    assert.throws(() => cache.fill(template, { v: bad }), /would need escaping/, bad);
  }
  assert.throws(() => cache.fill(template, {}), /no value for slot "v"/);
  assert.throws(() => cache.cut("<p>no slot here</p>", ["v"]), /slot "v" does not appear verbatim/);
  assert.throws(() => cache.slots.text("bad_name"), /not a slot name/);
});

Deno.test("PageCache: markers are unguessable and a number marker only matches whole numbers", () => {
  const a = new PageCache(), b = new PageCache();
  assert.notEqual(a.slots.text("x"), b.slots.text("x"));
  const n = String(a.slots.number("n"));
  const template = a.cut(`${n}9 9${n} ${n}`, ["n"]);
  assert.deepEqual(template.names, ["n"]);
});

Deno.test("PageCache: holds at most maxEntries templates, least recently used dropped first", () => {
  const cache = new PageCache({ maxEntries: 2 });
  const t = cache.cut("<p></p>", []);
  cache.set("a", t);
  cache.set("b", t);
  assert.ok(cache.get("a")); // a is now the most recently used
  cache.set("c", t);
  assert.equal(cache.stats.size, 2);
  assert.equal(cache.get("b"), undefined);
  assert.ok(cache.get("a"));
  assert.ok(cache.get("c"));
});

Deno.test("PageCache: holds at most maxBytes of pages and keys, least recently used dropped first", () => {
  const cache = new PageCache({ maxEntries: 100, maxBytes: 10_000 });
  const page = cache.cut("x".repeat(3_000), []);
  for (const key of ["a", "b", "c"]) cache.set(key, page);
  assert.ok(cache.get("a")); // a is now the most recently used
  cache.set("d", page); // 4 × (3,000 + the key) > 10,000: b goes
  assert.equal(cache.stats.size, 3);
  assert.equal(cache.get("b"), undefined);
  assert.ok(cache.get("a") && cache.get("c") && cache.get("d"));
  assert.ok(cache.stats.bytes <= 10_000, `${cache.stats.bytes} bytes held`);
  // A key counts too (two bytes a character): a long one pushes out more.
  cache.set("k".repeat(1_000), page); // 5,000 bytes: a and c go
  assert.ok(cache.stats.bytes <= 10_000, `${cache.stats.bytes} bytes held`);
  assert.equal(cache.stats.size, 2);
  // A page larger than the whole bound is not kept, and drops nothing.
  cache.set("huge", cache.cut("y".repeat(20_000), []));
  assert.equal(cache.get("huge"), undefined);
  assert.equal(cache.stats.size, 2);
  cache.clear();
  assert.deepEqual([cache.stats.size, cache.stats.bytes], [0, 0]);
});

Deno.test("PageCache: the default bounds", () => {
  const cache = new PageCache();
  assert.deepEqual([cache.maxEntries, cache.maxBytes, cache.maxKeyLength], [128, 4 * 1024 * 1024, 2048]);
});

// ---- ctx.renderCached through mountRoutes ----

interface Data {
  token: string;
  label: string;
}

function testApp(
  options: {
    pageCache?: { maxEntries?: number; maxKeyLength?: number };
    longPageKey?: (route: string, length: number) => void;
  } = {},
) {
  const renders: string[] = [];
  const errors: string[] = [];
  let nonceCounter = 0;
  const App = ({ Component }: LayoutProps) => h("html", null, h("body", null, h(Component, null)));
  const Page = ({ data, url }: PageProps<Data>) =>
    h("main", { "data-token": data.token }, `${data.label} ${url.search}`);
  const key = (req: Request) => new URL(req.url).searchParams.get("variant") ?? "plain";
  // `?bulky=N`: a route whose own key grows with its data (N characters).
  const handler: Handlers<Data> = {
    GET(req, ctx) {
      const token = `t${crypto.randomUUID().replaceAll("-", "")}`;
      const status = new URL(req.url).searchParams.get("status");
      const bulky = Number(new URL(req.url).searchParams.get("bulky") ?? 0);
      return ctx.renderCached({
        key: bulky ? "d".repeat(bulky) : key(req),
        data: (slots) => {
          renders.push(key(req));
          return { token: slots.text("token"), label: `variant ${key(req)}` };
        },
        slots: { token },
      }, status ? { status: Number(status) } : undefined);
    },
    POST(req, ctx) {
      return ctx.renderCached({
        key: key(req),
        data: (slots) => {
          renders.push("post");
          return { token: slots.text("token"), label: `variant ${key(req)}` };
        },
        slots: { token: "posted" },
      });
    },
  };
  const NonceLeak = ({ state }: PageProps<unknown, { nonce: string }>) => h("p", null, state.nonce);
  const manifest: Manifest = {
    routes: {
      "_app.tsx": { default: App },
      "page.tsx": { default: Page, handler },
      "leak.tsx": {
        default: NonceLeak,
        handler: (_req, ctx) => ctx.renderCached({ key: "", data: () => null, slots: {} }),
      },
    },
    islands: {},
  };
  const app = new Hono<{ Variables: { nonce: string } }>();
  app.use(async (c, next) => {
    c.set("nonce", `n${++nonceCounter}abc`);
    await next();
  });
  mountRoutes(app, manifest, {
    state: (c) => ({ nonce: c.get("nonce") }),
    nonce: (c) => c.get("nonce"),
    ...options,
  });
  app.onError((err, c) => {
    errors.push(err.message);
    return c.text("error", 500);
  });
  const get = async (path: string, init?: RequestInit) => {
    const res = await app.fetch(new Request(`http://test${path}`, init));
    return { res, text: await res.text() };
  };
  return { get, renders, errors };
}

Deno.test("renderCached: one render per key; every response gets its own slot values", async () => {
  const { get, renders } = testApp();
  const first = await get("/page");
  const second = await get("/page");
  assert.equal(first.res.status, 200);
  assert.equal(first.res.headers.get("content-type"), "text/html; charset=utf-8");
  assert.equal(first.res.headers.get("cache-control"), "no-store");
  assert.deepEqual(renders, ["plain"]);
  const token = (html: string) => html.match(/data-token="([^"]+)"/)![1];
  assert.notEqual(token(first.text), token(second.text));
  assert.equal(first.text.replace(token(first.text), "T"), second.text.replace(token(second.text), "T"));

  await get("/page?variant=b");
  await get("/page?variant=b");
  assert.deepEqual(renders, ["plain", "b"]);
});

Deno.test("renderCached: the cached page equals a fresh render but for the slots", async () => {
  const { get, renders } = testApp();
  const cached = await get("/page"); // miss: rendered with markers, then filled
  const hit = await get("/page");
  const fresh = await get("/page", { method: "POST" }); // not cacheable: rendered with its values
  assert.deepEqual(renders, ["plain", "post"]);
  const normal = (html: string) => html.replace(/data-token="[^"]+"/, 'data-token="T"');
  assert.equal(normal(cached.text), normal(fresh.text));
  assert.equal(normal(hit.text), normal(fresh.text));
  assert.match(fresh.text, /data-token="posted"/);
});

Deno.test("renderCached: POST, other statuses and over-long keys are rendered every time", async () => {
  const { get, renders } = testApp({ pageCache: { maxKeyLength: 200 } });
  await get("/page", { method: "POST" });
  await get("/page", { method: "POST" });
  assert.deepEqual(renders, ["post", "post"]);
  renders.length = 0;
  const gone = await get("/page?status=410");
  assert.equal(gone.res.status, 410);
  await get("/page?status=410");
  assert.deepEqual(renders, ["plain", "plain"]);
  renders.length = 0;
  const long = `/page?q=${"x".repeat(300)}`;
  await get(long);
  await get(long);
  assert.deepEqual(renders, ["plain", "plain"]);
});

Deno.test("renderCached: a route whose own key takes over half the longest is told, once", async () => {
  const told: [string, number][] = [];
  const { get, renders } = testApp({
    pageCache: { maxKeyLength: 200 },
    longPageKey: (route, length) => told.push([route, length]),
  });
  await get("/page?bulky=90"); // under half: a key may be this long
  assert.deepEqual(told, []);
  await get("/page?bulky=150"); // cached (the whole key fits), but told
  await get("/page?bulky=150");
  await get("/page?bulky=300"); // not cached, and not told twice
  assert.deepEqual(told, [["page.tsx", 150]]);
  assert.equal(renders.length, 3, "the 150-character key's second request came from the cache");
});

Deno.test("renderCached: HEAD answers the headers without a body", async () => {
  const { get } = testApp();
  const head = await get("/page", { method: "HEAD" });
  assert.equal(head.res.status, 200);
  assert.equal(head.text, "");
  assert.equal(head.res.headers.get("content-type"), "text/html; charset=utf-8");
});

Deno.test("renderCached: a page that renders the response's nonce itself is refused", async () => {
  const { get, errors } = testApp();
  const res = await get("/leak");
  assert.equal(res.res.status, 500);
  assert.match(errors[0], /must not render the CSP nonce itself/);
});

Deno.test("renderCached: a full cache keeps working, rendering what it dropped again", async () => {
  const { get, renders } = testApp({ pageCache: { maxEntries: 1 } });
  await get("/page?variant=a");
  await get("/page?variant=b");
  await get("/page?variant=a");
  assert.deepEqual(renders, ["a", "b", "a"]);
});
