/**
 * The desk's service worker on its own (issue 28, item 2, offline): served with
 * `Service-Worker-Allowed`, registered under the app's CSP with the desk's scope only, it keeps the
 * desk's scripts and the card key at install (versioned cache), and a page outside its scope is
 * never controlled.
 */
import assert from "node:assert/strict";
import { startTestApp } from "@/tests/helpers/app.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { currentBuild } from "@/lib/framework/assets.ts";
import { deskPrecache } from "@/lib/visits/desk_worker.ts";

browserTest(
  "the desk's worker registers under the CSP for the desk's scope alone and keeps its files",
  async () => {
    const app = await startTestApp();
    const browser = await launchBrowser();
    try {
      const res = await fetch(`${app.url}/desk-sw.js`);
      assert.equal(res.headers.get("service-worker-allowed"), "/");
      assert.match(res.headers.get("content-type") ?? "", /^text\/javascript/);
      const source = await res.text();
      assert.doesNotThrow(() => new Function(source), "the worker's source parses");

      const context = await browser.newContext();
      const page = await context.newPage();
      const watched = await watchPage(page);
      await page.goto(`${app.url}/en/`);
      const caches = await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.register("/desk-sw.js", { scope: "/en/desk" });
        const worker = reg.installing ?? reg.waiting ?? reg.active;
        if (worker && worker.state !== "activated") {
          await new Promise<void>((resolve) =>
            worker.addEventListener("statechange", () => worker.state === "activated" && resolve())
          );
        }
        const names = await globalThis.caches.keys();
        const kept = [];
        for (const name of names) {
          for (const req of await (await globalThis.caches.open(name)).keys()) {
            kept.push(new URL(req.url).pathname);
          }
        }
        return { names, kept, scope: reg.scope, controlled: navigator.serviceWorker.controller !== null };
      });
      assert.equal(caches.scope, `${app.url}/en/desk`);
      assert.equal(caches.controlled, false, "the donation page is not the worker's");
      assert.equal(caches.names.length, 1);
      assert.match(caches.names[0], /^desk:\/en\/desk:[0-9a-f]{16}$/);
      const precache = deskPrecache(currentBuild().manifest);
      for (const path of [...precache, "/.well-known/member-card-key.json"]) {
        assert.ok(caches.kept.includes(path), `${path} kept`);
      }
      await page.reload();
      assert.equal(await page.evaluate(() => navigator.serviceWorker.controller), null);
      assert.deepEqual(watched.all(), []);
    } finally {
      await browser.close();
      await app.close();
    }
  },
);
