/**
 * The result pages and the cancel-subscription page in Chromium: the progress bar fills over 7 s
 * on Playwright's clock and then navigates exactly once; the button navigates at once; the cancel
 * button works with JavaScript disabled, in English and Hebrew; the layout mirrors in Hebrew; and
 * axe finds no WCAG A/AA problem in the pages' content.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import { translator } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { runAxe } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { createPayment, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";

/** How long one wait may take before the test fails, in ms. */
const WAIT = 5_000;
/** The fake clock's start. */
const T0 = new Date("2026-03-01T09:00:00Z").getTime();

const pathAndQuery = (url: string) => new URL(url).pathname + new URL(url).search;

/** A donor with an active monthly donation (a real sandbox payment); answers the donor's id. */
async function monthlyDonor(app: TestApp, language: Lang): Promise<string> {
  const userId = await newDonor(app, language === "he" ? "Yael" : "Anna");
  const created = await createPayment(app, {
    amount: 100,
    currency: "nis",
    userId,
    isMonthly: true,
    language,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  await payOnSandboxPage(app, created.body.url);
  return userId;
}

/**
 * What navigations the page starts, recorded from now on: `requests` are the main frame's navigation
 * requests; `started` are the navigations its documents start (the Navigation API's `navigate`
 * event, fired for every `location.assign` and link click, even one that a later call replaces
 * before its request goes out).
 */
async function recordNavigations(page: Page): Promise<{ requests: string[]; started: string[] }> {
  const requests: string[] = [];
  const started: string[] = [];
  page.on("request", (req) => {
    if (req.isNavigationRequest() && req.frame() === page.mainFrame()) requests.push(pathAndQuery(req.url()));
  });
  page.on("console", (msg) => {
    const m = msg.text().match(/^navigate-started (.*)$/);
    if (m) started.push(pathAndQuery(m[1]));
  });
  await page.addInitScript(() => {
    // deno-lint-ignore no-explicit-any
    (globalThis as any).navigation?.addEventListener("navigate", (e: any) => {
      console.info(`navigate-started ${e.destination.url}`);
    });
  });
  return { requests, started };
}

browserTest("result pages in Chromium: progress bar, buttons, cancelling without JavaScript", async (t) => {
  const app = await startTestApp();
  let browser: Browser | undefined;
  const url = (path: string) => `${app.url}${path}`;
  const withContext = async (options: BrowserContextOptions, fn: (c: BrowserContext) => Promise<void>) => {
    const context = await browser!.newContext({ locale: "en-US", ...options });
    context.setDefaultTimeout(WAIT);
    try {
      await fn(context);
    } finally {
      await context.close();
    }
  };
  try {
    browser = await launchBrowser();

    await t.step("the progress bar fills over 7 s, then navigates once", async () => {
      for (
        const [path, target] of [
          ["/en/success", "/en"],
          ["/he/error?SandboxStatusCode=004", "/he"],
          ["/en/terminal-success/7", "/en/terminal-payment/7"],
        ]
      ) {
        await withContext({}, async (context) => {
          const page = await context.newPage();
          const watched = await watchPage(page);
          // Paused from before the page loads: no timer runs unless the test moves the clock.
          await page.clock.install({ time: T0 });
          await page.clock.pauseAt(T0 + 1_000);
          const navigations = await recordNavigations(page);
          await page.goto(url(path));
          const bar = page.locator('[role="progressbar"]');
          assert.equal(await bar.getAttribute("aria-valuenow"), "0");
          // The server sends the bar hidden; only the running island shows it.
          const html = await (await fetch(url(path))).text();
          assert.match(html, /class="progress-block" hidden/, `${path}: hidden until the island runs`);
          await page.clock.runFor(100); // the first 100 ms tick
          await bar.waitFor({ state: "visible" });
          assert.equal(
            await page.getByText(translator(path.startsWith("/he") ? "he" : "en")("progress.label"))
              .isVisible(),
            true,
          );
          await page.clock.runFor(3_400);
          const half = Number(await bar.getAttribute("aria-valuenow"));
          assert.ok(half >= 45 && half <= 52, `${path}: about half full at 3.5 s (${half})`);
          await page.clock.runFor(3_400);
          const nearly = Number(await bar.getAttribute("aria-valuenow"));
          assert.ok(nearly >= 95 && nearly < 100, `${path}: nearly full at 6.9 s (${nearly})`);
          assert.equal(pathAndQuery(page.url()), path, `${path}: not gone before 7 s`);
          assert.deepEqual(watched.all(), [], `${path}: a clean page`);
          await page.clock.runFor(200);
          await page.waitForURL(url(target));
          await page.waitForLoadState("load");
          assert.deepEqual(navigations.requests, [path, target], `${path}: one navigation, to ${target}`);
          assert.deepEqual(navigations.started, [target], `${path}: started once`);
        });
      }
    });

    await t.step("the timer starts its navigation once, however long the page stays", async () => {
      // Chromium drops a repeated navigation to the URL it is already going to, so a second
      // location.assign would not show as a request. Here every navigation the page starts is
      // cancelled (Navigation API), so the page stays and each call would show as one more event.
      for (const click of [false, true]) {
        await withContext({}, async (context) => {
          const page = await context.newPage();
          await page.clock.install({ time: T0 });
          await page.clock.pauseAt(T0 + 1_000);
          const navigations = await recordNavigations(page);
          await page.addInitScript(() => {
            // deno-lint-ignore no-explicit-any
            (globalThis as any).navigation?.addEventListener("navigate", (e: any) => e.preventDefault());
          });
          await page.goto(url("/en/success"));
          await page.clock.runFor(100);
          for (let i = 0; i < 100; i++) {
            // With `click`, the button is pressed at 3 s: the timer must then never navigate.
            if (click && i === 30) await page.getByRole("link", { name: "New payment" }).click();
            await page.clock.runFor(100); // 10 s, tick by tick
          }
          const bar = Number(await page.locator('[role="progressbar"]').getAttribute("aria-valuenow"));
          if (click) assert.ok(bar > 35 && bar < 50, `the bar stops when the button is pressed (${bar})`);
          else assert.equal(bar, 100);
          assert.equal(pathAndQuery(page.url()), "/en/success", "the navigation was held");
          assert.deepEqual(navigations.started, ["/en"], `started exactly once (click: ${click})`);
        });
      }
    });

    await t.step("the button navigates at once, and the timer does not navigate again", async () => {
      for (
        const [path, lang, key, target] of [
          ["/en/success", "en", "success.newPayment", "/en"],
          ["/he/error?SandboxStatusCode=004", "he", "transactionError.retry", "/he"],
          [
            "/en/terminal-error/7?SandboxStatusCode=004",
            "en",
            "transactionError.retry",
            "/en/terminal-payment/7",
          ],
        ] as const
      ) {
        await withContext({}, async (context) => {
          const page = await context.newPage();
          await page.clock.install({ time: T0 });
          await page.clock.pauseAt(T0 + 1_000);
          const navigations = await recordNavigations(page);
          await page.goto(url(path));
          await page.clock.runFor(500);
          await page.locator('[role="progressbar"]').waitFor({ state: "visible" });
          await page.getByRole("link", { name: translator(lang)(key) }).click();
          await page.waitForURL(url(target));
          await page.waitForLoadState("load");
          // Seven more seconds: the old page's timer is gone with it, and nothing else navigates.
          await page.clock.runFor(7_000);
          assert.deepEqual(navigations.requests, [path, target], path);
          assert.deepEqual(navigations.started, [target], `${path}: started once`);
        });
      }
    });

    await t.step("right-to-left: the details and the bar mirror in Hebrew", async () => {
      for (const lang of ["en", "he"] as const) {
        await withContext({}, async (context) => {
          const page = await context.newPage();
          await page.clock.install({ time: T0 });
          await page.clock.pauseAt(T0 + 1_000);
          await page.goto(url(`/${lang}/error?SandboxStatusCode=004`));
          await page.clock.runFor(2_000);
          await page.locator("details.result-details summary").click();
          const dt = (await page.locator(".details-list dt").first().boundingBox())!;
          const dd = (await page.locator(".details-list dd").first().boundingBox())!;
          const track = (await page.locator(".progress").boundingBox())!;
          const fill = (await page.locator(".progress-fill").boundingBox())!;
          assert.ok(fill.width > 0 && fill.width < track.width, `${lang}: partly filled`);
          if (lang === "en") {
            assert.ok(dt.x < dd.x, "en: label on the left");
            assert.ok(Math.abs(fill.x - track.x) <= 2, "en: fills from the left");
          } else {
            assert.ok(dt.x > dd.x, "he: label on the right");
            assert.ok(
              Math.abs(fill.x + fill.width - (track.x + track.width)) <= 2,
              "he: fills from the right",
            );
          }
        });
      }
    });

    await t.step("without JavaScript: no bar, the button still works", async () => {
      await withContext({ javaScriptEnabled: false }, async (context) => {
        const page = await context.newPage();
        await page.goto(url("/en/success"));
        assert.equal(await page.locator('[role="progressbar"]').isVisible(), false);
        await page.getByRole("link", { name: translator("en")("success.newPayment") }).click();
        await page.waitForURL(url("/en"));
      });
    });

    await t.step("the cancel button with JavaScript disabled, in en and he", async () => {
      for (const lang of ["en", "he"] as const) {
        const tr = translator(lang);
        const userId = await monthlyDonor(app, lang);
        await withContext({ javaScriptEnabled: false }, async (context) => {
          const page = await context.newPage();
          const watched = await watchPage(page);
          const res = await page.goto(url(`/${lang}/cancel-subscription?userId=${userId}`));
          assert.equal(res?.status(), 200);
          assert.equal(await page.getAttribute("html", "dir"), lang === "he" ? "rtl" : "ltr");
          const button = page.getByRole("button", { name: tr("cancel.cancelButton") });
          const style = await button.evaluate((el) => {
            const s = getComputedStyle(el);
            return {
              background: s.backgroundColor,
              color: s.color,
              height: el.getBoundingClientRect().height,
            };
          });
          assert.equal(style.background, "rgb(181, 71, 8)", `${lang}: orange`);
          assert.equal(style.color, "rgb(255, 255, 255)");
          assert.ok(style.height >= 44, `${lang}: a 44 px target (${style.height})`);
          await button.click();
          await page.waitForLoadState("load");
          await page.getByText(tr("cancel.cancelled")).waitFor();
          const monthly = page.locator(".details-list > div", { hasText: tr("cancel.monthlyActive") });
          assert.equal((await monthly.locator("dd").textContent())?.trim(), tr("cancel.no"));
          assert.equal(await page.getByRole("button", { name: tr("cancel.cancelButton") }).count(), 0);
          assert.equal(await page.getByText(tr("cancel.nextPayment")).count(), 0);
          assert.equal((await app.store.donors.get(userId))?.monthlyPaymentAvailable, false);
          assert.deepEqual(watched.all(), [], `${lang}: a clean page`);
          await page.getByRole("link", { name: tr("cancel.homeButton") }).click();
          await page.waitForURL(url(`/${lang}`));
        });
      }
    });

    await t.step("axe finds no WCAG 2.1 A/AA problem in the pages' content", async () => {
      const userId = await monthlyDonor(app, "en");
      await withContext({ bypassCSP: true }, async (context) => {
        const page = await context.newPage();
        for (const lang of ["en", "he"]) {
          for (
            const path of [
              "success",
              "error?SandboxStatusCode=004",
              "terminal-error/7?SandboxStatusCode=004",
              `cancel-subscription?userId=${userId}`,
              "cancel-subscription",
            ]
          ) {
            await page.goto(url(`/${lang}/${path}`));
            const summary = page.locator("details.result-details summary");
            if (await summary.count() > 0) await summary.click();
            const audit = await runAxe(page, {
              include: "main",
              tags: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"],
            });
            assert.ok(audit.passes > 0, "axe ran");
            assert.deepEqual(audit.violations, [], `/${lang}/${path}`);
          }
        }
      });
    });
  } finally {
    await browser?.close();
    await app.close();
  }
});
