/**
 * Accessibility of the donation and kiosk pages in Chromium, in English and Hebrew: axe-core finds
 * no WCAG 2.0/2.1/2.2 A or AA problem on the pages (the kiosk page as a paired kiosk sees it, and as
 * any other browser does: a notice for staff), nor in the donation page's states (a tier
 * chosen, every on-blur error, the loading step, the payment step with the sandbox frame, whose
 * own card page is checked on its own), nor in a kiosk's sale; and focus moves sensibly between
 * the steps (`document.activeElement` after each one).
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { translator } from "@/lib/core/i18n.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser } from "@/tests/helpers/browser.ts";
import { kioskContext, pairTestKiosk } from "@/tests/helpers/kiosk.ts";

const LANGS = ["en", "he"] as const;
const FLAGS = { FEATURE_MONTHLY_PAYMENT: "1", FEATURE_TEST_TERMINAL_PAYMENT: "1" };
const DONOR = { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" };
/** How long one wait may take before the test fails, in ms. */
const WAIT = 10_000;

/**
 * The contrast of each button's text on its own background (computed colours, WCAG formula), so
 * the orange buttons are checked whatever axe can or cannot resolve. Answers `selector: ratio`.
 */
function buttonContrasts(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (els) => {
    const luminance = (color: string) => {
      const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
        const c = Number(v) / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    return els.map((el) => {
      const style = getComputedStyle(el);
      const [a, b] = [luminance(style.color), luminance(style.backgroundColor)].sort((x, y) => y - x);
      return `${el.className}: ${((a + 0.05) / (b + 0.05)).toFixed(2)}`;
    });
  });
}

/** Describes the focused element, for messages. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return "nothing";
    const cls = typeof el.className === "string" && el.className
      ? `.${el.className.split(" ").join(".")}`
      : "";
    return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${cls}`;
  });
}

/** Waits until the focused element matches `selector`; fails naming what has focus instead. */
async function expectFocus(page: Page, selector: string, what: string) {
  const ok = await page.waitForFunction(
    (sel) => document.activeElement?.matches(sel) ?? false,
    selector,
    { timeout: 3_000 },
  ).then(() => true, () => false);
  assert.ok(ok, `${what}: focus on ${selector}, not on ${await focused(page)}`);
}

async function withContext(
  browser: Browser,
  lang: string,
  fn: (context: BrowserContext) => Promise<void>,
  options: { reducedMotion?: "reduce" } = {},
) {
  const context = await browser.newContext({
    bypassCSP: true, // lets axe be injected
    locale: lang === "he" ? "he-IL" : "en-US",
    reducedMotion: options.reducedMotion ?? "no-preference",
  });
  context.setDefaultTimeout(WAIT);
  try {
    await fn(context);
  } finally {
    await context.close();
  }
}

async function openEnhanced(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('form.donation-form[data-enhanced="true"]');
  return page;
}

/** Holds every request to `path` until `release()` is called. */
async function hold(page: Page, path: string): Promise<{ release(): void }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => release = resolve);
  await page.route(`**${path}`, async (route: Route) => {
    await released;
    await route.continue().catch(() => {});
  });
  return { release };
}

browserTest(
  "axe: the donation and kiosk pages, and the sandbox card page, have no WCAG A/AA problem",
  async () => {
    const app = await startTestApp({ env: FLAGS });
    const browser = await launchBrowser();
    try {
      const kiosk = await pairTestKiosk(app, "7");
      for (const lang of LANGS) {
        await withContext(browser, lang, async (context) => {
          const page = await context.newPage();
          for (const path of ["", "terminal-payment/7", "terminal-payment"]) {
            const res = await page.goto(`${app.url}/${lang}/${path}`);
            assert.equal(res?.status(), 200, `/${lang}/${path}`);
            await assertAxeClean(page, `/${lang}/${path}`);
          }
          await kioskContext(context, app.url, kiosk.cookie);
          await page.goto(`${app.url}/${lang}/terminal-payment/7`);
          await page.waitForSelector("form.donation-form.kiosk");
          await assertAxeClean(page, `/${lang}/terminal-payment/7, the paired kiosk`);
          // The orange (primary) buttons: white text at 4.5:1 or more.
          await page.goto(`${app.url}/${lang}/`);
          const contrasts = await buttonContrasts(page, ".button-primary");
          assert.equal(contrasts.length, 2, "the hero's and the form's primary buttons");
          for (const line of contrasts) assert.ok(Number(line.split(": ")[1]) >= 4.5, `${lang}: ${line}`);
        });
      }
    } finally {
      await browser.close();
      await app.close();
    }
  },
);

/** The donation page's states, audited and with focus checked, in one language. */
async function donationStates(app: TestApp, browser: Browser, lang: (typeof LANGS)[number]) {
  const tr = translator(lang);
  await withContext(browser, lang, async (context) => {
    const page = await openEnhanced(context, `${app.url}/${lang}/`);

    // Every on-blur error showing.
    for (const name of Object.keys(DONOR)) {
      await page.focus(`#donor-${name}`);
      await page.locator(`#donor-${name}`).blur();
    }
    assert.equal(await page.locator(".field-error").count(), 4);
    await assertAxeClean(page, `/${lang}/ every on-blur error`);

    // A tier chosen: the payment section scrolls in and its heading takes focus.
    await page.click('label.tier-card:has(input[value="tier-2"])');
    await expectFocus(page, "#payment-title", `${lang}: a tier chosen`);
    await assertAxeClean(page, `/${lang}/ a tier chosen`);

    // Submit with problems: the first invalid field takes focus, and its message is announced.
    await page.fill("#donor-firstName", DONOR.firstName);
    await page.click(".donate-button");
    await expectFocus(page, "#donor-lastName", `${lang}: a submit with problems`);
    assert.equal(await page.getAttribute("#donor-lastName", "aria-invalid"), "true");
    assert.equal(
      (await page.textContent('[aria-live="polite"]'))?.trim(),
      tr("form.enterLastName"),
      `${lang}: the first problem announced`,
    );

    // The loading step (held while the payment is created): its status text has focus.
    for (const [name, value] of Object.entries(DONOR)) await page.fill(`#donor-${name}`, value);
    const create = await hold(page, "/api/payment/create");
    await page.click(".donate-button");
    await page.waitForSelector('.loading[role="status"]');
    await expectFocus(page, '.loading[role="status"] .loading-text[tabindex="-1"]', `${lang}: loading`);
    assert.equal(await page.textContent(".loading-text"), tr("payment.processing"));
    await assertAxeClean(page, `/${lang}/ loading step`);
    create.release();

    // The payment step: its heading has focus; the frame has a title.
    const frame = page.locator("iframe.payment-frame");
    await frame.waitFor();
    await expectFocus(page, '.payment-step-title[tabindex="-1"]', `${lang}: the payment frame shown`);
    assert.equal(await frame.getAttribute("title"), tr("payment.frameTitle"));
    await assertAxeClean(page, `/${lang}/ payment step with the frame`);

    // The frame's own page, checked on its own, before and after a refused card.
    const src = (await frame.getAttribute("src"))!;
    assert.match(src, /\/sandbox\/pay\//);
    const card = await context.newPage();
    await card.goto(new URL(src, app.url).href);
    await assertAxeClean(card, `${lang}: sandbox card page`);
    await card.fill('input[name="cardNumber"]', "1234");
    await card.fill('input[name="expiry"]', "12/30");
    await card.fill('input[name="cvv"]', "123");
    await card.fill('input[name="idNumber"]', "123456789");
    await card.click('button[type="submit"]');
    await card.waitForSelector(".field-error");
    await assertAxeClean(card, `${lang}: sandbox card page with a problem`);
    await card.close();

    // Close: back to the form, focus on the submit button.
    await page.click(".payment-view a.button");
    await expectFocus(page, ".donate-button", `${lang}: closed`);
    assert.equal(await page.locator("iframe").count(), 0);
    await assertAxeClean(page, `/${lang}/ after close`);

    // Arrow keys move through the tiers without leaving the group.
    await page.focus('input[value="tier-2"]');
    await page.keyboard.press(lang === "he" ? "ArrowLeft" : "ArrowRight");
    assert.ok(await page.isChecked('input[value="tier-3"]'), `${lang}: the arrow chose the next tier`);
    await expectFocus(page, 'input[value="tier-3"]', `${lang}: arrow keys`);
  });

  // With reduced motion the section is in view at once (no smooth scroll); focus as before.
  await withContext(browser, lang, async (context) => {
    const page = await openEnhanced(context, `${app.url}/${lang}/`);
    await page.click('label.tier-card:has(input[value="tier-1"])');
    const at = await page.evaluate(() => scrollY);
    await page.waitForTimeout(500);
    const later = await page.evaluate(() => scrollY);
    assert.ok(at > 0 && at === later, `${lang}: reduced motion scrolls at once (${at}, then ${later})`);
    await expectFocus(page, "#payment-title", `${lang}: a tier chosen, reduced motion`);
  }, { reducedMotion: "reduce" });
}

/** A kiosk's sale, held at the terminal: each phase announced, focus on the phase heading. */
async function kioskPhases(app: TestApp, browser: Browser, lang: (typeof LANGS)[number]) {
  const tr = translator(lang);
  const kiosk = await pairTestKiosk(app, "7");
  await withContext(browser, lang, async (context) => {
    await kioskContext(context, app.url, kiosk.cookie);
    const page = await openEnhanced(context, `${app.url}/${lang}/terminal-payment/7`);
    await page.click('label.tier-card:has(input[value="tier-1"])');
    await expectFocus(page, "#payment-title", `${lang} kiosk: a tier chosen`);
    for (const [name, value] of Object.entries(DONOR)) await page.fill(`#donor-${name}`, value);
    await hold(page, "/api/payment/pay-emv"); // the terminal never answers in this test
    await page.click(".donate-button");
    const phase = page.locator(".terminal-phase");
    for (const key of ["terminal.payAtTerminal", "terminal.attachCard", "terminal.waitingForCard"]) {
      await page.locator(".terminal-phase", { hasText: tr(key) }).waitFor();
      assert.equal(await phase.evaluate((el) => el.tagName), "H3");
      // The phase text sits in a polite live region, so each change is announced.
      const live = await phase.evaluate((el) => {
        const region = el.closest('[role="status"], [aria-live]');
        return region ? region.getAttribute("aria-live") ?? region.getAttribute("role") : null;
      });
      assert.ok(live === "status" || live === "polite", `${lang} kiosk ${key}: in a live region (${live})`);
      await expectFocus(page, '.terminal-phase[tabindex="-1"]', `${lang} kiosk ${key}`);
      if (key === "terminal.attachCard") await assertAxeClean(page, `/${lang}/terminal-payment/7 ${key}`);
    }
  });
}

for (const lang of LANGS) {
  browserTest(`donation page (${lang}): axe in every step, and focus follows the steps`, async () => {
    const app = await startTestApp({ env: FLAGS });
    const browser = await launchBrowser();
    try {
      await donationStates(app, browser, lang);
    } finally {
      await browser.close();
      await app.close();
    }
  });

  browserTest(`kiosk (${lang}): each terminal phase announced, focus on the phase heading`, async () => {
    const app = await startTestApp({ env: FLAGS });
    const browser = await launchBrowser();
    try {
      await kioskPhases(app, browser, lang);
    } finally {
      await browser.close();
      await app.close();
    }
  });
}
