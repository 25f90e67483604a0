/**
 * The browser tests' page watcher (`tests/helpers/browser.ts`): a request the browser cancels because
 * the page navigated on is not the page's fault; a request that fails on the page it was made for is.
 */
import assert from "node:assert/strict";
import { browserTest, launchBrowser, openWatchedPage } from "@/tests/helpers/browser.ts";

browserTest("page watcher: requests cut by a navigation are not failures; others are", async (t) => {
  const slow = Promise.withResolvers<void>();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/slow") {
      await slow.promise; // answered only after the test has moved on
      return new Response("late");
    }
    if (path === "/refused") return new Response(null, { status: 503 });
    const script = path === "/a"
      ? `fetch("/slow").catch(() => {});`
      : path === "/c"
      ? `const c = new AbortController(); fetch("/slow", { signal: c.signal }).catch(() => {}); setTimeout(() => c.abort(), 50);`
      : "";
    return new Response(`<!doctype html><title>x</title><script>${script}</script>`, {
      headers: { "content-type": "text/html" },
    });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const browser = await launchBrowser();
  try {
    const watched = await openWatchedPage(browser);
    await t.step("a fetch in flight when the test navigates away: not reported", async () => {
      await watched.page.goto(`${base}/a`);
      await watched.page.waitForTimeout(100);
      await watched.page.goto(`${base}/b`);
      assert.deepEqual(watched.all(), []);
    });
    await t.step("a request cut off with no navigation: reported", async () => {
      watched.reset();
      await watched.page.goto(`${base}/c`);
      await watched.page.waitForTimeout(300);
      assert.equal(watched.all().length, 1, watched.all().join("\n"));
      assert.match(watched.all()[0], /\/slow: net::ERR_ABORTED/);
    });
  } finally {
    slow.resolve();
    await browser.close();
    await server.shutdown();
  }
});
