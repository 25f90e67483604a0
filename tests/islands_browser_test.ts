/**
 * The island layer end to end in Chromium, on fixture islands: a React-style island (useState from
 * "react") hydrates from server HTML with its props, two islands share one `@preact/signals`
 * instance, and nothing else on the page is touched.
 */
import assert from "node:assert/strict";
import { h } from "preact";
import { loadBuild, serveBuild } from "@/lib/framework/assets.ts";
import { build } from "@/lib/framework/build.ts";
import { registerIslands } from "@/lib/framework/islands.ts";
import { renderPage } from "@/lib/framework/render.ts";
import { Hono } from "hono";
import Counter from "@/tests/fixtures/react_compat/islands/Counter.tsx";
import Total from "@/tests/fixtures/react_compat/islands/Total.tsx";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { ensureTestBuild, ROOT } from "@/tests/helpers/app.ts";

browserTest("islands: React-style hydration with props and shared signals", async () => {
  const outDir = await Deno.makeTempDir();
  const browser = await launchBrowser();
  const server = await (async () => {
    await build(ROOT, { outDir, islandsDir: `${ROOT}/tests/fixtures/react_compat` });
    await loadBuild(outDir);
    registerIslands({ Counter: { default: Counter }, Total: { default: Total } });
    const app = new Hono();
    app.use("/_app/*", serveBuild());
    app.get("/favicon.ico", (c) => c.body(null, 204));
    app.get("/", (c) =>
      c.html(renderPage({
        layouts: [],
        page: () =>
          h(
            "main",
            null,
            h("p", { id: "static" }, "server"),
            h(Counter, { start: 5 }),
            h(Total, { label: "Total" }),
          ),
        props: { url: new URL(c.req.url), params: {}, state: {}, data: null, status: 200 },
      })));
    return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  })();
  try {
    const page = await browser.newPage();
    const watched = await watchPage(page);
    await page.goto(`http://127.0.0.1:${server.addr.port}/`);
    assert.equal(await page.textContent("#counter"), "5", "server-rendered with its props");
    assert.equal(await page.textContent("#total"), "Total: 0");
    await page.waitForFunction(() => document.querySelectorAll("x-island").length === 2);
    await page.click("#counter");
    await page.waitForFunction(() => document.querySelector("#counter")?.textContent === "6");
    await page.click("#counter");
    await page.waitForFunction(() => document.querySelector("#total")?.textContent === "Total: 2");
    assert.equal(await page.textContent("#static"), "server");
    assert.deepEqual(watched.all(), []);
  } finally {
    await browser.close();
    await server.shutdown();
    await Deno.remove(outDir, { recursive: true });
    // Put the real build back for any later test in this process.
    await ensureTestBuild().then(() => loadBuild(`${ROOT}/_build`));
  }
});
