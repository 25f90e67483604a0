/**
 * The donor's flows end to end in Chromium, in English and Hebrew, on one app with the monthly
 * flag on: a monthly tier paid in the sandbox frame to the success page, then cancelled on the
 * cancel-subscription page (the store's subscription with it); a declined card to the error page
 * with its translated message and details; and axe (WCAG 2.0/2.1/2.2 A and AA, the whole document)
 * on every result page, the cancel page in each of its states, and the not-found page.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext } from "playwright-core";
import { errorMessageKey } from "@/lib/donations/error_codes.ts";
import { translator } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { GOOD_CARD, payInSandboxFrame, startDonation } from "@/tests/helpers/payments.ts";

const LANGS = ["en", "he"] as const;
/** A card the sandbox declines with status 033 (invalid card). */
const DECLINED_CARD = "4000 0000 0000 0033";
/** How long one wait may take before the test fails, in ms. */
const WAIT = 15_000;

function donor(lang: Lang, flow: string) {
  return {
    firstName: lang === "he" ? "Yael" : "Anna",
    lastName: "Levi",
    email: `${flow}-${lang}@example.org`,
    country: "Israel",
  };
}

async function newContext(browser: Browser, lang: Lang): Promise<BrowserContext> {
  const context = await browser.newContext({
    bypassCSP: true, // lets axe be injected
    locale: lang === "he" ? "he-IL" : "en-US",
  });
  context.setDefaultTimeout(WAIT);
  return context;
}

/**
 * Opens `path` in a fresh page that cancels every navigation its documents start (so a progress
 * bar cannot take it away during the audit; a paused clock would stall axe, which runs on timers),
 * opens its details block if it has one, and audits it.
 */
async function auditPath(app: TestApp, context: BrowserContext, path: string, status: number) {
  const page = await context.newPage();
  try {
    await page.addInitScript(() => {
      // deno-lint-ignore no-explicit-any
      (globalThis as any).navigation?.addEventListener("navigate", (e: any) => e.preventDefault());
    });
    const res = await page.goto(`${app.url}${path}`);
    assert.equal(res?.status(), status, path);
    const summary = page.locator("details.result-details summary");
    if (await summary.count() > 0) {
      await summary.click();
      assert.equal(await page.locator("details.result-details").getAttribute("open"), "", `${path}: open`);
    }
    await assertAxeClean(page, path);
  } finally {
    await page.close();
  }
}

/** Monthly tier → success → cancel page (Yes, orange button) → cancelled (No, home button). */
async function monthlyFlow(app: TestApp, browser: Browser, lang: Lang) {
  const tr = translator(lang);
  const context = await newContext(browser, lang);
  try {
    const page = await context.newPage();
    const watched = await watchPage(page);
    const who = donor(lang, "monthly");
    await startDonation(page, `${app.url}/${lang}/`, "monthly", who);
    await payInSandboxFrame(page, GOOD_CARD);
    await page.waitForURL(new RegExp(`/${lang}/success\\?SandboxTransactionId=`));
    const successPath = new URL(page.url()).pathname + new URL(page.url()).search;
    assert.deepEqual(watched.all(), [], `${lang}: a clean donation`);

    // The donor, from the newest monthly transaction.
    const newest = (await app.store.transactions.listSuccess({ page: 1, limit: 1, isMonthly: true })).data[0];
    assert.ok(newest, `${lang}: a monthly transaction recorded`);
    assert.equal(newest.user.email, who.email);
    const userId = newest.donorId;
    const before = await app.store.subscriptions.listByDonor(userId);
    assert.equal(before.filter((s) => s.status === "active").length, 1, `${lang}: one active subscription`);

    await auditPath(app, context, successPath, 200);

    // The cancel page: 'Yes' and the orange button.
    const cancelPath = `/${lang}/cancel-subscription?userId=${userId}`;
    watched.reset();
    const res = await page.goto(`${app.url}${cancelPath}`);
    assert.equal(res?.status(), 200);
    const monthly = page.locator(".details-list > div", { hasText: tr("cancel.monthlyActive") });
    assert.equal((await monthly.locator("dd").textContent())?.trim(), tr("cancel.yes"));
    const button = page.getByRole("button", { name: tr("cancel.cancelButton") });
    assert.equal(
      await button.evaluate((el) => getComputedStyle(el).backgroundColor),
      "rgb(181, 71, 8)",
      `${lang}: the orange cancel button`,
    );
    assert.equal(await page.getByRole("link", { name: tr("cancel.homeButton") }).count(), 0);
    await assertAxeClean(page, `${cancelPath} before cancelling`);

    // Cancel: 'No', the home button, and the store agrees.
    await button.click();
    await page.getByText(tr("cancel.cancelled")).waitFor();
    assert.equal((await monthly.locator("dd").textContent())?.trim(), tr("cancel.no"));
    assert.equal(await page.getByRole("button", { name: tr("cancel.cancelButton") }).count(), 0);
    await page.getByRole("link", { name: tr("cancel.homeButton") }).waitFor();
    await assertAxeClean(page, `${cancelPath} after cancelling`);
    assert.deepEqual(watched.all(), [], `${lang}: a clean cancel page`);
    const after = await app.store.subscriptions.listByDonor(userId);
    assert.ok(after.length > 0);
    for (const s of after) {
      assert.equal(s.status, "cancelled", `${lang}: subscription ${s.id} cancelled`);
      assert.ok(s.cancelledAt, `${lang}: subscription ${s.id} has its cancel time`);
    }
    assert.equal((await app.store.donors.get(userId))?.monthlyPaymentAvailable, false);
  } finally {
    await context.close();
  }
}

/** A declined card → the error page with the 033 message and the details block. */
async function declinedFlow(app: TestApp, browser: Browser, lang: Lang) {
  const tr = translator(lang);
  const context = await newContext(browser, lang);
  try {
    const page = await context.newPage();
    const watched = await watchPage(page);
    await startDonation(page, `${app.url}/${lang}/`, "one-time", donor(lang, "declined"));
    await payInSandboxFrame(page, DECLINED_CARD);
    await page.waitForURL(new RegExp(`/${lang}/error\\?SandboxStatusCode=033&`));
    const errorPath = new URL(page.url()).pathname + new URL(page.url()).search;
    assert.equal(
      (await page.textContent(".result-reason"))?.trim(),
      tr(errorMessageKey("033")),
      `${lang}: the 033 message`,
    );
    assert.notEqual(tr(errorMessageKey("033")), tr("transactionError.default"));
    await page.click("details.result-details summary");
    assert.equal(await page.locator("details.result-details").getAttribute("open"), "");
    const row = (key: string) =>
      page.locator("details.result-details .details-list > div", { hasText: tr(key) }).locator("dd");
    assert.equal((await row("transactionError.amount").textContent())?.trim(), formatMoney(10000, 1, lang));
    assert.equal((await row("transactionError.statusCode").textContent())?.trim(), "033");
    assert.deepEqual(watched.all(), [], `${lang}: a clean error page`);
    await auditPath(app, context, errorPath, 200);
  } finally {
    await context.close();
  }
}

browserTest(
  "donor flows (en, he): monthly to cancel, a declined card, axe on every result page",
  async (t) => {
    const app = await startTestApp({ env: { FEATURE_MONTHLY_PAYMENT: "1" } });
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      for (const lang of LANGS) {
        await t.step(`${lang}: a monthly donation, then cancelled`, () => monthlyFlow(app, browser!, lang));
        await t.step(`${lang}: a declined card`, () => declinedFlow(app, browser!, lang));
        await t.step(`${lang}: axe on the other result pages`, async () => {
          const context = await newContext(browser!, lang);
          try {
            for (
              const [path, status] of [
                [`/${lang}/terminal-success/7`, 200],
                [`/${lang}/terminal-error/7?SandboxStatusCode=004`, 200],
                [`/${lang}/cancel-subscription?userId=unknownDonorId0123456789`, 404],
                [`/${lang}/cancel-subscription`, 200],
                [`/${lang}/no-such-page`, 404],
              ] as const
            ) {
              await auditPath(app, context, path, status);
            }
          } finally {
            await context.close();
          }
        });
      }
    } finally {
      await browser?.close();
      await app.close();
    }
  },
);
