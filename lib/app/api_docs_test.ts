import assert from "node:assert/strict";
import { z } from "zod";
import { createApiDocs } from "./api_docs.ts";
import type { LazyManifest, RouteFileModule } from "@/lib/framework/types.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

const docs: RouteDocs = {
  GET: {
    summary: "A thing",
    tags: ["things"],
    responses: { 200: { description: "It", schema: z.string() } },
  },
};

/** A lazy manifest whose loaders count their calls. */
function manifest(failFirst = false) {
  const loads: string[] = [];
  let failures = failFirst ? 1 : 0;
  const route = (file: string, mod: RouteFileModule) => () => {
    loads.push(file);
    if (file === "api/thing.ts" && failures-- > 0) return Promise.reject(new Error("load failed"));
    return Promise.resolve(mod);
  };
  const routes: LazyManifest["routes"] = {
    "api/thing.ts": route(
      "api/thing.ts",
      { handler: { GET: () => new Response("it") }, docs } as RouteFileModule,
    ),
    "api/_middleware.ts": route("api/_middleware.ts", { handler: (_req, ctx) => ctx.next() }),
    "[lang]/index.tsx": route("[lang]/index.tsx", { default: () => null }),
  };
  return { routes, loads };
}

Deno.test("api docs: nothing loads until asked; then only the api/ routes, once", async () => {
  const { routes, loads } = manifest();
  const apiDocs = createApiDocs(routes);
  assert.deepEqual(loads, []);
  const [doc, json] = await Promise.all([apiDocs.document(), apiDocs.json()]);
  assert.deepEqual(loads.sort(), ["api/_middleware.ts", "api/thing.ts"]);
  const paths = doc.paths as Record<string, Record<string, { summary: string }>>;
  assert.equal(paths["/api/thing"].get.summary, "A thing");
  assert.equal(json, JSON.stringify(doc));
  assert.equal(await apiDocs.document(), doc, "the same document, kept");
  assert.equal(loads.length, 2, "loaded once");
});

Deno.test("api docs: a failed load fails that request only; the next one loads again", async () => {
  const { routes } = manifest(true);
  const apiDocs = createApiDocs(routes);
  await assert.rejects(() => apiDocs.json(), /load failed/);
  assert.match(await apiDocs.json(), /"\/api\/thing"/);
});
