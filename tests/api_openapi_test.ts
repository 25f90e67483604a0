/**
 * `GET /api/openapi.json` and `GET /api/docs`: every API route documented, nothing documented that is
 * not a route, and each operation documented in its concept (`lib/<concept>/api_docs.ts`).
 */
import assert from "node:assert/strict";
import manifest from "@/manifest.gen.ts";
import { pathToPattern } from "@/lib/framework/router.ts";
import type { Handlers, RouteModule } from "@/lib/framework/types.ts";
import { buildOpenApi } from "@/lib/app/openapi.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { startTestApp } from "@/tests/helpers/app.ts";

/** The documentation-only routes themselves. */
const SELF = new Set(["/api/openapi.json", "/api/docs"]);

/** Layers of `lib/` that are not concepts (`lib/README.md`): no operation is documented there. */
const NOT_CONCEPTS = new Set(["shared", "core", "framework", "storage", "http", "app"]);

/** Each export of a concept's `api_docs.ts`, by value: `lib/refunds/api_docs.ts#refundGiftDocs`. */
async function conceptDocs(): Promise<Map<unknown, string>> {
  const found = new Map<unknown, string>();
  const lib = new URL("../lib/", import.meta.url);
  for await (const entry of Deno.readDir(lib)) {
    if (!entry.isDirectory || NOT_CONCEPTS.has(entry.name)) continue;
    const file = new URL(`${entry.name}/api_docs.ts`, lib);
    if (!(await Deno.stat(file).catch(() => null))?.isFile) continue;
    for (const [name, value] of Object.entries(await import(file.href))) {
      found.set(value, `lib/${entry.name}/api_docs.ts#${name}`);
    }
  }
  return found;
}

Deno.test("api docs: each route's docs live in its concept's api_docs.ts, and each documents a route", async (t) => {
  const found = await conceptDocs();
  const used = new Set<unknown>();
  for (const [file, mod] of Object.entries(manifest.routes)) {
    const docs = (mod as { docs?: RouteDocs }).docs;
    if (!file.startsWith("api/") || docs === undefined) continue;
    used.add(docs);
    await t.step(`routes/${file}`, () => {
      assert.ok(found.has(docs), `routes/${file}: its docs are not an export of a lib/<concept>/api_docs.ts`);
    });
  }
  const unused = [...found].filter(([value]) => !used.has(value)).map(([, name]) => name);
  assert.deepEqual(unused, [], "documented in a concept but no route's docs");
});

Deno.test("api: OpenAPI document matches the routes both ways", async (t) => {
  const app = await startTestApp();
  try {
    const res = await fetch(`${app.url}/api/openapi.json`);
    assert.equal(res.status, 200);
    const doc = await res.json();
    assert.equal(doc.openapi, "3.1.0");

    const routes = new Set<string>();
    for (const [file, mod] of Object.entries(manifest.routes)) {
      if (!file.startsWith("api/") || file.split("/").pop()!.startsWith("_")) continue;
      const pattern = pathToPattern(file);
      if (SELF.has(pattern)) continue;
      const handler = (mod as RouteModule).handler;
      assert.ok(handler && typeof handler === "object", `routes/${file} exports method handlers`);
      const docs = (mod as { docs?: RouteDocs }).docs ?? {};
      const methods = Object.keys(handler as Handlers).sort();
      await t.step(`routes/${file}`, () => {
        assert.deepEqual(Object.keys(docs).sort(), methods, `routes/${file}: docs for exactly its methods`);
      });
      for (const m of methods) routes.add(`${m.toLowerCase()} ${pattern.replace(/:(\w+)/g, "{$1}")}`);
    }
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) documented.add(`${method} ${path}`);
    }
    assert.deepEqual([...documented].sort(), [...routes].sort());

    await t.step("the app's document is the one built from every route module", () => {
      // The app loads only the api/ routes, on this first request (lib/app/api_docs.ts).
      assert.deepEqual(doc, buildOpenApi(manifest));
    });

    await t.step("the spec's calls are all there", () => {
      for (
        const op of [
          "get /api/feature-flags",
          "get /api/user/{id}",
          "patch /api/user/off-monthly-payment/{id}",
          "post /api/user",
          "post /api/auth/admin/login",
          "post /api/auth/admin/register",
          "post /api/auth/admin/refresh",
          "get /api/transaction/get-all-success-transactions",
          "get /api/transaction/get-all-error-transactions",
        ]
      ) assert.ok(documented.has(op), op);
    });

    await t.step("schemas are referenced, errors documented", () => {
      const post = doc.paths["/api/user"].post;
      assert.equal(
        post.requestBody.content["application/json"].schema.$ref,
        "#/components/schemas/CreateDonor",
      );
      assert.ok(doc.components.schemas.CreateDonor.properties.email);
      // The donor's Israeli ID number (issue 14): documented, optional.
      assert.match(doc.components.schemas.CreateDonor.properties.israeliId.description, /Israeli ID number/);
      assert.ok(!doc.components.schemas.CreateDonor.required.includes("israeliId"));
      assert.ok(post.responses["400"] && post.responses["415"]);
      const list = doc.paths["/api/transaction/get-all-success-transactions"].get;
      assert.deepEqual(list.security, [{ bearerAuth: [] }]);
      // `from`, `to` and `refund`: the overview's links (issue 26).
      assert.deepEqual(list.parameters.map((p: { name: string }) => p.name).sort(), [
        "from",
        "isMonthly",
        "limit",
        "page",
        "refund",
        "searchString",
        "to",
      ]);
    });

    await t.step("the back office's export, daily totals and error filter are described", () => {
      const names = (op: { parameters: { name: string }[] }) => op.parameters.map((p) => p.name).sort();
      const errors = doc.paths["/api/transaction/get-all-error-transactions"].get;
      // `lang`: the language of each item's `statusText` (issue 26).
      assert.deepEqual(names(errors), ["from", "isMonthly", "lang", "limit", "page", "searchString", "to"]);
      const csv = doc.paths["/api/transaction/export"].get;
      assert.deepEqual(csv.security, [{ bearerAuth: [] }]);
      assert.deepEqual(names(csv), ["from", "isMonthly", "lang", "refund", "searchString", "to", "type"]);
      assert.deepEqual(Object.keys(csv.responses["200"].content), ["text/csv"]);
      assert.ok(csv.responses["200"].headers["Content-Disposition"]);
      assert.ok(csv.responses["400"] && csv.responses["401"] && csv.responses["403"]);
      const totals = doc.paths["/api/transaction/daily-totals"].get;
      assert.deepEqual(names(totals), ["days", "lang"]);
      assert.equal(
        totals.responses["200"].content["application/json"].schema.$ref,
        "#/components/schemas/DailyTotals",
      );
      // Data only: the back office draws the chart.
      assert.deepEqual(Object.keys(doc.components.schemas.DailyTotals.properties).sort(), [
        "currencies",
        "days",
        "from",
        "timeZone",
        "to",
      ]);
    });

    await t.step("GET /api/docs renders every operation", async () => {
      const page = await fetch(`${app.url}/api/docs`);
      assert.equal(page.status, 200);
      const html = await page.text();
      for (const op of documented) {
        const [method, path] = op.split(" ");
        assert.ok(html.includes(`${method.toUpperCase()} ${path}`), op);
      }
      assert.ok(!html.includes("<script"), "the docs page ships no JavaScript");
    });
  } finally {
    await app.close();
  }
});
