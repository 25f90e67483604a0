/**
 * End-to-end tests in a real browser (Debian's Chromium through playwright-core) against the real
 * app on a free port: language redirects, right-to-left layout, the language selector with and
 * without JavaScript, scroll-to-top, the not-found page, the 'Donate now' anchor, the
 * `init-payment` message, clean hydration of every page, and CSP nonces on scripts.
 *
 * One app and one browser serve the whole file; every step opens its own browser context (cheap)
 * and closes it. Without Chromium the test is skipped with one line saying why, or fails under CI
 * (see tests/helpers/browser.ts).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";
import en from "@/locales/en.json" with { type: "json" };
import he from "@/locales/he.json" with { type: "json" };
import ru from "@/locales/ru.json" with { type: "json" };
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { browserTest, launchBrowser, openWatchedPage } from "@/tests/helpers/browser.ts";

/**
 * A deadline for what the test waits for (a navigation, a hydrated island): the wait ends when it
 * comes. 5 s ran out under CI's load (a page.goto waits for the load event, and a route's first
 * answer loads its modules), and 2 s for an island's hydration was tighter still.
 */
const WAIT = 30_000;

/**
 * Every page of the route table below `/{lang}/` (the part after the language), except `admin`:
 * signed out it replaces itself with the sign-in page (tests/admin_dashboard_browser_test.ts).
 */
const PAGES = [
  "",
  "terminal-payment/7",
  "terminal-payment",
  "terminal-success/7",
  "terminal-error/7",
  "success",
  "error",
  "cancel-subscription",
  "login",
  "register",
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Path and query of a URL. */
function pathAndQuery(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

/**
 * Waits until the page has loaded and the islands' effects have run: module scripts run before
 * `load`, and Preact runs effects after the next frame, so two frames later they are attached.
 */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("load");
  await page.evaluate(() =>
    new Promise<void>((resolve) =>
      requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))
    )
  );
}

/** Scrolls the window at once (the stylesheet asks for smooth scrolling) and waits two frames. */
async function scrollToY(page: Page, y: number): Promise<number> {
  return await page.evaluate(async (top) => {
    scrollTo({ top, behavior: "instant" });
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return scrollY;
  }, y);
}

/** Makes the page much taller than the viewport, after load (so the page itself is unchanged). */
async function makeTall(page: Page): Promise<void> {
  await page.evaluate(() => {
    const spacer = document.createElement("div");
    spacer.style.blockSize = "4000px";
    document.body.append(spacer);
  });
}

/** Polls `check` until it returns true or `timeout` ms pass. */
async function waitUntil(check: () => Promise<boolean>, what: string, timeout = WAIT): Promise<void> {
  const end = Date.now() + timeout;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting until ${what}`);
    await sleep(25);
  }
}

/** Whether the top of `selector`'s element is inside the viewport. */
async function topInViewport(page: Page, selector: string): Promise<boolean> {
  const box = await page.locator(selector).boundingBox();
  const viewport = page.viewportSize();
  return box !== null && viewport !== null && box.y >= -1 && box.y < viewport.height;
}

browserTest("browser: the public pages in Chromium", async (t) => {
  const app: TestApp = await startTestApp();
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const b = browser;
    /** Runs `fn` in a fresh context (English browser unless told otherwise), closed afterwards. */
    const withContext = async (
      options: BrowserContextOptions,
      fn: (context: BrowserContext) => Promise<void>,
    ): Promise<void> => {
      const context = await b.newContext({ locale: "en-US", ...options });
      context.setDefaultTimeout(WAIT);
      try {
        await fn(context);
      } finally {
        await context.close();
      }
    };
    const url = (path: string) => `${app.url}${path}`;

    await t.step(
      "/ redirects by the browser's language; an unsupported language goes to English",
      async () => {
        for (const [locale, lang] of [["en-US", "en"], ["he-IL", "he"]]) {
          await withContext({ locale }, async (context) => {
            const page = await context.newPage();
            const res = await page.goto(url("/"));
            assert.equal(pathAndQuery(page.url()), `/${lang}/`, `locale ${locale}`);
            assert.equal(res?.request().redirectedFrom()?.url(), url("/"), "it was a redirect from /");
            assert.equal(res?.status(), 200);
            assert.equal(await page.getAttribute("html", "lang"), lang);
          });
        }
        await withContext({}, async (context) => {
          const page = await context.newPage();
          const res = await page.goto(url("/fr/success?x=1"));
          assert.equal(pathAndQuery(page.url()), "/en/success?x=1");
          assert.equal(res?.status(), 200);
          assert.equal(await page.getAttribute("html", "lang"), "en");
        });
      },
    );

    await t.step("/he/ is right-to-left and its layout mirrors /en/", async () => {
      const viewport = { width: 1280, height: 720 };
      const measure = async (lang: "en" | "he", label: string) => {
        let result!: Record<
          "header" | "logo" | "selector" | "button",
          { x: number; y: number; width: number; height: number }
        >;
        await withContext({ viewport }, async (context) => {
          const page = await context.newPage();
          await page.goto(url(`/${lang}/`));
          await settle(page);
          assert.equal(await page.getAttribute("html", "lang"), lang);
          assert.equal(await page.getAttribute("html", "dir"), lang === "he" ? "rtl" : "ltr");
          const header = await page.locator(".site-header").boundingBox();
          const logo = await page.locator(".site-header .logo").boundingBox();
          const selector = await page.locator(".site-header .lang-selector").boundingBox();
          await makeTall(page);
          await scrollToY(page, 1000);
          const button = page.getByRole("button", { name: label, exact: true });
          await button.waitFor({ state: "visible" });
          const buttonBox = await button.boundingBox();
          assert.ok(header && logo && selector && buttonBox, "all four elements have boxes");
          result = { header, logo, selector, button: buttonBox };
        });
        return result;
      };
      const center = (box: { x: number; width: number }) => box.x + box.width / 2;
      const near = 100; // px from an edge that still counts as "at" that edge

      const ltr = await measure("en", en.scrollToTop.label);
      assert.ok(ltr.logo.x - ltr.header.x < near, `en: logo at the left (logo x ${ltr.logo.x})`);
      assert.ok(center(ltr.selector) > center(ltr.header), "en: language selector at the right");
      assert.ok(ltr.button.x < near, `en: scroll-to-top at the left (x ${ltr.button.x})`);
      assert.ok(
        viewport.height - (ltr.button.y + ltr.button.height) < near,
        "en: scroll-to-top at the bottom",
      );

      const rtl = await measure("he", he.scrollToTop.label);
      const headerRight = rtl.header.x + rtl.header.width;
      assert.ok(
        headerRight - (rtl.logo.x + rtl.logo.width) < near,
        `he: logo at the right (logo x ${rtl.logo.x})`,
      );
      assert.ok(center(rtl.selector) < center(rtl.header), "he: language selector at the left");
      assert.ok(
        viewport.width - (rtl.button.x + rtl.button.width) < near,
        `he: scroll-to-top at the right (x ${rtl.button.x})`,
      );
      assert.ok(
        viewport.height - (rtl.button.y + rtl.button.height) < near,
        "he: scroll-to-top at the bottom",
      );
    });

    await t.step(
      "the language selector switches language, keeps the path, and saves the choice",
      async () => {
        await withContext({}, async (context) => {
          const { page, all } = await openWatchedPage(context);
          await page.goto(url("/en/terminal-payment/12?x=1"));
          await settle(page);
          const nav = page.getByRole("navigation", { name: en.header.languageSelector });
          // The links shown at this width (a phone's menu holds the same links, hidden here).
          const current = nav.locator('a[aria-current="true"]:visible');
          assert.equal(await current.count(), 1, "exactly one link is the current language");
          assert.equal(await current.textContent(), en.languageName);
          assert.equal(
            await nav.locator("a[aria-current]:visible").count(),
            1,
            "the other links carry no aria-current",
          );

          await nav.getByRole("link", { name: he.languageName, exact: true }).click();
          await page.waitForURL(url("/he/terminal-payment/12?x=1"));
          assert.equal(await page.getAttribute("html", "lang"), "he");
          assert.equal(await page.evaluate(() => localStorage.getItem("i18nextLng")), "he");
          const cookie = (await context.cookies(app.url)).find((c) => c.name === "lang");
          assert.equal(cookie?.value, "he", "the choice is saved in the `lang` cookie");
          const heNav = page.getByRole("navigation", { name: he.header.languageSelector });
          assert.equal(await heNav.locator('a[aria-current="true"]:visible').textContent(), he.languageName);

          // The context's browser language is English: only the saved cookie can send `/` to Hebrew.
          await page.goto(url("/"));
          assert.equal(pathAndQuery(page.url()), "/he/");
          assert.deepEqual(all(), []);
        });
      },
    );

    await t.step("the language selector works with JavaScript disabled", async () => {
      await withContext({ javaScriptEnabled: false }, async (context) => {
        const page = await context.newPage();
        await page.goto(url("/en/success?x=1"));
        await page.getByRole("link", { name: ru.languageName, exact: true }).click();
        await page.waitForURL(url("/ru/success?x=1"));
        assert.equal(await page.getAttribute("html", "lang"), "ru");
        assert.equal(await page.locator("h1").first().textContent(), ru.pages.success);
        // Without scripts, the page's own answer saved the visited language (spec section 2).
        assert.equal((await context.cookies(app.url)).find((c) => c.name === "lang")?.value, "ru");
      });
    });

    await t.step("scroll-to-top: hidden up to 200 px, shown past it, scrolls back to the top", async () => {
      await withContext({ viewport: { width: 1024, height: 600 } }, async (context) => {
        const { page, all } = await openWatchedPage(context);
        await page.goto(url("/en/"));
        await settle(page);
        await makeTall(page);
        const button = page.locator(".scroll-top");
        assert.equal(await page.evaluate(() => scrollY), 0);
        assert.equal(await button.isHidden(), true, "hidden at 0");
        assert.equal(await scrollToY(page, 150), 150);
        assert.equal(await button.isHidden(), true, "hidden at 150 px");
        assert.equal(await scrollToY(page, 250), 250);
        await button.waitFor({ state: "visible" });
        assert.equal(await scrollToY(page, 150), 150);
        await button.waitFor({ state: "hidden" });
        assert.equal(await scrollToY(page, 900), 900);
        const named = page.getByRole("button", { name: en.scrollToTop.label, exact: true });
        await named.waitFor({ state: "visible" });
        await named.click();
        await page.waitForFunction(() => scrollY === 0, undefined, { timeout: WAIT });
        await button.waitFor({ state: "hidden" });
        assert.deepEqual(all(), []);
      });
      await withContext({ viewport: { width: 1024, height: 600 } }, async (context) => {
        const page = await context.newPage();
        await page.goto(url("/ru/"));
        await settle(page);
        await makeTall(page);
        await scrollToY(page, 600);
        assert.equal(ru.scrollToTop.label, "Наверх");
        const named = page.getByRole("button", { name: "Наверх", exact: true });
        await named.waitFor({ state: "visible" });
        assert.equal(await named.getAttribute("aria-label"), "Наверх");
      });
    });

    await t.step("not-found: 404 in the page's language, with a link home", async () => {
      await withContext({}, async (context) => {
        const { page, all } = await openWatchedPage(context);
        const heRes = await page.goto(url("/he/no-such-page"));
        assert.equal(heRes?.status(), 404);
        assert.equal(await page.title(), he.notFound.title);
        assert.equal(await page.getAttribute("html", "dir"), "rtl");
        assert.equal(await page.getAttribute("html", "lang"), "he");
        assert.equal(await page.locator("main h1").textContent(), he.notFound.title);
        assert.equal(await page.locator("main .not-found p").textContent(), he.notFound.message);
        assert.equal(await page.getByRole("link", { name: he.notFound.goHome }).getAttribute("href"), "/he");

        const res = await page.goto(url("/en/no-such-page"));
        assert.equal(res?.status(), 404);
        assert.equal(await page.title(), "Page not found");
        assert.equal(await page.getAttribute("html", "dir"), "ltr");
        const home = page.getByRole("link", { name: "Go to Home Page", exact: true });
        assert.equal(await home.getAttribute("href"), "/en");
        const [landing] = await Promise.all([
          page.waitForResponse((r) => r.request().isNavigationRequest() && r.status() < 300),
          home.click(),
        ]);
        await page.waitForLoadState("load");
        assert.match(pathAndQuery(page.url()), /^\/en\/?$/);
        assert.equal(landing.status(), 200);
        assert.equal(await page.locator("#hero-title").textContent(), en.welcome.headline);
        assert.deepEqual(all(), []);
      });
    });

    await t.step("'Donate now' scrolls to #donate, with and without JavaScript", async () => {
      for (const javaScriptEnabled of [true, false]) {
        await withContext({ javaScriptEnabled, viewport: { width: 1024, height: 400 } }, async (context) => {
          const page = await context.newPage();
          await page.goto(url("/en/"));
          if (javaScriptEnabled) await settle(page);
          assert.equal(
            await topInViewport(page, "#donate"),
            false,
            "precondition: #donate starts below the fold",
          );
          await page.getByRole("link", { name: en.welcome.donateNow, exact: true }).click();
          await waitUntil(
            () => topInViewport(page, "#donate"),
            `#donate is in the viewport (JS ${javaScriptEnabled})`,
          );
          assert.equal(new URL(page.url()).hash, "#donate");
        });
      }
    });

    await t.step("the init-payment window message logs exactly one line", async () => {
      await withContext({}, async (context) => {
        const { page, all } = await openWatchedPage(context);
        const lines: string[] = [];
        page.on("console", (msg) => {
          if (msg.text().includes("init-payment")) lines.push(msg.text());
        });
        await page.goto(url("/en/"));
        await settle(page);
        await page.evaluate(() => postMessage("something-else", "*"));
        await sleep(100);
        assert.deepEqual(lines, [], "another message logs nothing");
        const logged = page.waitForEvent("console", { predicate: (m) => m.text().includes("init-payment") });
        await page.evaluate(() => postMessage("init-payment", "*"));
        await logged;
        await sleep(200); // room for a second, wrong line
        assert.equal(lines.length, 1, `one line, got ${JSON.stringify(lines)}`);
        assert.deepEqual(all(), []);
      });
    });

    await t.step("every page answers 200 and hydrates with no errors in en and he", async () => {
      const failures: string[] = [];
      for (const lang of ["en", "he"] as const) {
        await withContext({ locale: lang === "he" ? "he-IL" : "en-US" }, async (context) => {
          const watched = await openWatchedPage(context);
          const { page } = watched;
          for (const rest of PAGES) {
            const path = `/${lang}/${rest}`;
            watched.reset();
            const res = await page.goto(url(path));
            if (res?.status() !== 200) failures.push(`${path}: status ${res?.status()}`);
            await settle(page);
            if (await page.getAttribute("html", "lang") !== lang) {
              failures.push(`${path}: html lang is not ${lang}`);
            }
            // Island 1, InitPaymentListener: its effect answers the message.
            const logged = page.waitForEvent("console", {
              predicate: (m) => m.text().includes("init-payment"),
              timeout: WAIT,
            }).then(() => true, () => false);
            await page.evaluate(() => postMessage("init-payment", "*"));
            if (!(await logged)) failures.push(`${path}: InitPaymentListener did not hydrate`);
            // Island 2, LanguageSelector: its click handler saves the choice (navigation prevented).
            const saved = await page.evaluate((code) => {
              localStorage.removeItem("i18nextLng");
              addEventListener("click", (e) => e.preventDefault(), { capture: true, once: true });
              document.querySelector<HTMLAnchorElement>(`.lang-selector a[hreflang="${code}"]`)?.click();
              return localStorage.getItem("i18nextLng");
            }, lang);
            if (saved !== lang) failures.push(`${path}: LanguageSelector did not hydrate (saved ${saved})`);
            // Island 3, ScrollToTop: shows once the page is scrolled.
            await makeTall(page);
            await scrollToY(page, 600);
            const shown = await page.locator(".scroll-top").waitFor({ state: "visible", timeout: WAIT })
              .then(() => true, () => false);
            if (!shown) failures.push(`${path}: ScrollToTop did not hydrate`);
            for (const problem of watched.all()) failures.push(`${path}: ${problem}`);
          }
        });
      }
      assert.deepEqual(failures, []);
    });

    await t.step("every <script> carries the nonce of the response's CSP", async () => {
      await withContext({}, async (context) => {
        const page = await context.newPage();
        const seen: string[] = [];
        for (const path of ["/en/", "/he/terminal-payment/7", "/en/login", "/en/no-such-page"]) {
          const res = await page.goto(url(path));
          assert.ok(res, `${path}: a response`);
          const csp = (await res.allHeaders())["content-security-policy"] ?? "";
          const scriptSrc = csp.split(";").map((d) => d.trim()).find((d) => d.startsWith("script-src ")) ??
            "";
          const nonce = /'nonce-([^']+)'/.exec(scriptSrc)?.[1];
          assert.ok(nonce, `${path}: script-src has a nonce: ${csp}`);
          seen.push(nonce);
          // As served: the raw HTML, whose nonce attributes the browser would hide from the DOM.
          const tags = (await res.text()).match(/<script\b[^>]*>/gi) ?? [];
          assert.ok(tags.length > 0, `${path}: the page has scripts`);
          for (const tag of tags) {
            assert.equal(/\snonce="([^"]*)"/.exec(tag)?.[1], nonce, `${path}: ${tag}`);
          }
          // As running: every script element of the document, including any added at run time.
          const domNonces = await page.$$eval("script", (scripts) => scripts.map((s) => s.nonce));
          assert.equal(domNonces.length, tags.length, `${path}: the DOM has exactly the served scripts`);
          for (const n of domNonces) assert.equal(n, nonce, `${path}: a script element's nonce`);
        }
        assert.equal(new Set(seen).size, seen.length, "each response has its own nonce");
      });
    });
  } finally {
    await browser?.close();
    await app.close();
  }
});
