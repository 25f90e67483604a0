/**
 * Spec section 2, language handling, in Chromium: visiting `/{lang}/…` saves the language (local
 * storage, as the spec says, and the cookie the server reads), so `/` afterwards goes to it, before
 * the browser's own language; without JavaScript the server's cookie alone does it.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { LANG_STORAGE_KEY } from "@/lib/shared/languages.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";

async function withBrowser(run: (app: TestApp, browser: Browser) => Promise<void>) {
  const app = await startTestApp();
  const browser = await launchBrowser();
  try {
    await run(app, browser);
  } finally {
    await browser.close();
    await app.close();
  }
}

/** The saved choice in local storage, once the page's islands have run. */
async function stored(page: Page): Promise<string | null> {
  await page.waitForSelector('form.donation-form[data-enhanced="true"]');
  return await page.evaluate((key) => localStorage.getItem(key), LANG_STORAGE_KEY);
}

const pathOf = (page: Page) => new URL(page.url()).pathname;

browserTest("language memory: after visiting /es/, / goes to /es/; local storage holds es", async () => {
  await withBrowser(async (app, browser) => {
    const page = await browser.newPage();
    const watched = await watchPage(page);
    await page.goto(`${app.url}/`);
    assert.equal(pathOf(page), "/en/");
    await page.goto(`${app.url}/es/`);
    assert.equal(await stored(page), "es");
    await page.goto(`${app.url}/`);
    assert.equal(pathOf(page), "/es/");
    assert.deepEqual(watched.all(), []);
  });
});

browserTest("language memory: a ru-RU browser that visited /pt/ is sent to /pt/, not /ru/", async () => {
  await withBrowser(async (app, browser) => {
    const context = await browser.newContext({ locale: "ru-RU" });
    const page = await context.newPage();
    await page.goto(`${app.url}/`);
    assert.equal(pathOf(page), "/ru/", "before any choice, the browser's language");
    await page.goto(`${app.url}/pt/`);
    assert.equal(await stored(page), "pt");
    await page.goto(`${app.url}/`);
    assert.equal(pathOf(page), "/pt/");
    // The `lng` parameter still comes before the saved choice.
    await page.goto(`${app.url}/?lng=he`);
    assert.equal(pathOf(page), "/he/");
  });
});

browserTest(
  "language memory: without JavaScript the server's cookie saves the visited language",
  async () => {
    await withBrowser(async (app, browser) => {
      const context = await browser.newContext({ locale: "ru-RU", javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${app.url}/es/`);
      await page.goto(`${app.url}/`);
      assert.equal(pathOf(page), "/es/");
      const cookies = await context.cookies(app.url);
      assert.equal(cookies.find((c) => c.name === "lang")?.value, "es");
    });
  },
);
