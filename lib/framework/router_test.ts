import assert from "node:assert/strict";
import { classifyRouteFile, folderParams, pathToPattern, prefixMatches, sortRoutes } from "./router.ts";

Deno.test("pathToPattern maps files to URL patterns", () => {
  const cases: [string, string][] = [
    ["index.ts", "/"],
    ["health.ts", "/health"],
    ["[lang]/index.tsx", "/:lang"],
    ["[lang]/success.tsx", "/:lang/success"],
    ["[lang]/admin/index.tsx", "/:lang/admin"],
    ["[lang]/terminal-payment/[[shopNumber]].tsx", "/:lang/terminal-payment/:shopNumber?"],
    ["api/feature-flags.ts", "/api/feature-flags"],
    ["api/user/[id].ts", "/api/user/:id"],
    ["api/user/off-monthly-payment/[id].ts", "/api/user/off-monthly-payment/:id"],
    ["api/payment/test-emv/[terminalNumber].ts", "/api/payment/test-emv/:terminalNumber"],
    ["sandbox/[...rest].ts", "/sandbox/*"],
    ["robots.txt.ts", "/robots.txt"],
  ];
  for (const [file, pattern] of cases) assert.equal(pathToPattern(file), pattern, file);
});

Deno.test("pathToPattern refuses misplaced optional and catch-all segments and odd names", () => {
  assert.throws(() => pathToPattern("[[a]]/b.ts"), /optional segment must be the last/);
  assert.throws(() => pathToPattern("[...a]/b.ts"), /catch-all segment must be the last/);
  assert.throws(() => pathToPattern("a b/c.ts"), /not a valid route segment/);
  assert.throws(() => pathToPattern("[a-b].ts"), /not a valid route segment/);
});

Deno.test("classifyRouteFile tells special files, routes and non-routes apart", () => {
  assert.deepEqual(classifyRouteFile("_app.tsx")?.kind, "app");
  assert.deepEqual(classifyRouteFile("_404.tsx")?.kind, "notFound");
  const layout = classifyRouteFile("[lang]/_layout.tsx");
  assert.equal(layout?.kind, "layout");
  assert.equal(layout?.pattern, "/:lang");
  const mw = classifyRouteFile("api/_middleware.ts");
  assert.equal(mw?.kind, "middleware");
  assert.equal(mw?.pattern, "/api");
  assert.equal(classifyRouteFile("_middleware.ts")?.pattern, "/");
  assert.equal(classifyRouteFile("[lang]/success.tsx")?.kind, "route");
  assert.equal(classifyRouteFile("README.md"), null);
  assert.equal(classifyRouteFile("[lang]/success_test.tsx"), null);
  assert.equal(classifyRouteFile("[lang]/_helpers.ts"), null);
  assert.throws(() => classifyRouteFile("[lang]/_app.tsx"), /only allowed at the top/);
});

Deno.test("sortRoutes puts static segments before params, params before optional ones", () => {
  const patterns = [
    "/:lang",
    "/:lang/terminal-payment/:shopNumber?",
    "/api/user/:id",
    "/",
    "/:lang/success",
    "/api/user/off-monthly-payment/:id",
    "/sandbox/*",
    "/health",
  ];
  const sorted = sortRoutes(patterns.map((p) => classifyRouteFile(toFile(p))!)).map((r) => r.pattern);
  assert.deepEqual(sorted, [
    "/",
    "/health",
    "/api/user/off-monthly-payment/:id",
    "/api/user/:id",
    "/sandbox/*",
    "/:lang",
    "/:lang/success",
    "/:lang/terminal-payment/:shopNumber?",
  ]);
  assert.ok(sorted.indexOf("/api/user/:id") < sorted.indexOf("/:lang/success"), "api before [lang]");
});

function toFile(pattern: string): string {
  if (pattern === "/") return "index.ts";
  return pattern.slice(1).split("/").map((s) =>
    s === "*"
      ? "[...rest]"
      : s.endsWith("?")
      ? `[[${s.slice(1, -1)}]]`
      : s.startsWith(":")
      ? `[${s.slice(1)}]`
      : s
  ).join("/") + ".ts";
}

Deno.test("prefixMatches and folderParams apply folders to patterns and paths", () => {
  assert.equal(prefixMatches("/", "/anything"), true);
  assert.equal(prefixMatches("/:lang", "/:lang/success"), true);
  assert.equal(prefixMatches("/:lang", "/:lang"), true);
  assert.equal(prefixMatches("/api", "/:lang"), false);
  assert.equal(prefixMatches("/api", "/apiary"), false);
  assert.deepEqual(folderParams("/:lang", "/en/nope"), { lang: "en" });
  assert.deepEqual(folderParams("/:lang", "/%D7%A2/x"), { lang: "ע" });
  assert.deepEqual(folderParams("/:lang", "/"), null);
  assert.deepEqual(folderParams("/api", "/en/x"), null);
  assert.deepEqual(folderParams("/", "/x"), {});
});
