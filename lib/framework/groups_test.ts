/**
 * Route groups: a folder named `(name)` adds nothing to the URL, and its `_middleware.ts` and
 * `_layout.tsx` apply to the routes inside it only (Fresh 2's groups).
 */
import assert from "node:assert/strict";
import { h } from "preact";
import { classifyRouteFile, pathToPattern } from "./router.ts";
import { testApp, type TestState } from "./testing.ts";
import type { Handler, LayoutProps, Manifest, PageProps } from "./types.ts";

const logged = (log: string[], name: string): Handler<unknown, TestState> => async (_req, ctx) => {
  log.push(name);
  return await ctx.next();
};
const layout = (name: string) => ({ Component }: LayoutProps) =>
  h("div", { class: name }, h(Component, null));
const Page = ({ url }: PageProps) => h("main", null, url.pathname);
const NotFound = () => h("p", null, "missing");
const doc = (inner: string) => `<!DOCTYPE html>${inner}`;

Deno.test("groups: a (name) folder adds no URL segment", () => {
  const cases: [string, string][] = [
    ["api/(admin)/donor/index.ts", "/api/donor"],
    ["api/(admin)/transaction/[id]/refund.ts", "/api/transaction/:id/refund"],
    ["(shop)/cart.tsx", "/cart"],
    ["(shop)/index.tsx", "/"],
    ["[lang]/(back-office)/(inner)/audit.tsx", "/:lang/audit"],
  ];
  for (const [file, pattern] of cases) assert.equal(pathToPattern(file), pattern, file);
  assert.equal(classifyRouteFile("api/(admin)/_middleware.ts")?.pattern, "/api");
  assert.equal(classifyRouteFile("(shop)/_layout.tsx")?.pattern, "/");
  // A group is a folder, never the route's own name; nor an empty or odd name.
  assert.throws(() => pathToPattern("api/(admin).ts"), /not a valid route segment/);
  assert.throws(() => pathToPattern("api/()/x.ts"), /not a valid route segment/);
  assert.throws(() => pathToPattern("api/(a b)/x.ts"), /not a valid route segment/);
});

Deno.test("groups: the group's middleware runs for its routes only, after the outer folders'", async () => {
  const log: string[] = [];
  const manifest: Manifest = {
    routes: {
      "api/(admin)/_middleware.ts": {
        handler: (req, ctx) =>
          req.headers.get("authorization")
            ? logged(log, "admin")(req, ctx)
            : Response.json({}, { status: 401 }),
      },
      "api/(admin)/donor/index.ts": { handler: { GET: () => new Response("donor") } },
      "api/(admin)/donor/_middleware.ts": { handler: logged(log, "donor") },
      "api/(admin)/audit/[id].ts": {
        handler: { GET: (_req, ctx) => new Response(`audit ${ctx.params.id}`) },
      },
      "api/_middleware.ts": { handler: logged(log, "api") },
      "api/public.ts": { handler: { GET: () => new Response("public") } },
      "api/user/[id].ts": { handler: { GET: () => new Response("user") } },
    },
    islands: {},
  };
  const { request } = testApp(manifest);
  const auth = { headers: { authorization: "Bearer x" } };
  assert.equal((await request("/api/donor")).res.status, 401);
  assert.equal((await request("/api/audit/7")).res.status, 401);
  assert.deepEqual(log, ["api", "api"]);
  log.length = 0;
  assert.equal((await request("/api/donor", auth)).text, "donor");
  assert.deepEqual(log, ["api", "admin", "donor"]);
  log.length = 0;
  assert.equal((await request("/api/audit/7", auth)).text, "audit 7");
  assert.deepEqual(log, ["api", "admin"]);
  log.length = 0;
  // Beside the group, in the same URL folder: not the group's.
  assert.equal((await request("/api/public")).text, "public");
  assert.equal((await request("/api/user/1")).text, "user");
  assert.deepEqual(log, ["api", "api"]);
});

Deno.test("groups: layouts apply inside the group; a miss takes the group's folders only where it falls in them", async () => {
  const log: string[] = [];
  const manifest: Manifest = {
    routes: {
      "(shop)/_layout.tsx": { default: layout("shop") },
      "(shop)/_middleware.ts": { handler: logged(log, "shop") },
      "(shop)/cart/index.tsx": { default: Page },
      "(shop)/cart/items/[id].tsx": { default: Page },
      "(shop)/checkout.tsx": { default: Page },
      "_404.tsx": { default: NotFound },
      "_layout.tsx": { default: layout("root") },
      "about.tsx": { default: Page },
    },
    islands: {},
  };
  const { request } = testApp(manifest);
  assert.equal(
    (await request("/cart")).text,
    doc(`<div class="root"><div class="shop"><main>/cart</main></div></div>`),
  );
  assert.equal(
    (await request("/checkout")).text,
    doc(`<div class="root"><div class="shop"><main>/checkout</main></div></div>`),
  );
  assert.equal((await request("/about")).text, doc(`<div class="root"><main>/about</main></div>`));
  assert.deepEqual(log, ["shop", "shop"]);
  log.length = 0;
  // `/cart/…` is a folder of the group: its misses are the group's.
  const inGroup = await request("/cart/nope");
  assert.equal(inGroup.res.status, 404);
  assert.equal(inGroup.text, doc(`<div class="root"><div class="shop"><p>missing</p></div></div>`));
  assert.deepEqual(log, ["shop"]);
  log.length = 0;
  // `/nope` is in the root folder, which the group shares with others: not the group's.
  const outside = await request("/nope");
  assert.equal(outside.text, doc(`<div class="root"><p>missing</p></div>`));
  assert.deepEqual(log, []);
});

Deno.test("groups: two route files of one URL are refused", () => {
  assert.throws(
    () =>
      testApp({
        routes: {
          "api/(admin)/donor.ts": { handler: () => new Response("a") },
          "api/donor.ts": { handler: () => new Response("b") },
        },
        islands: {},
      }),
    /routes\/api\/\(admin\)\/donor.ts and routes\/api\/donor.ts both answer \/api\/donor/,
  );
});
