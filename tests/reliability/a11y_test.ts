/**
 * Issue 7, item 11: axe-core finds no WCAG A/AA problem on any page of the route table, in
 * English and Hebrew, as a visitor first sees it (every route below `/{lang}/`, the not-found
 * page, the sandbox's card page, the API reference). The states inside pages are audited where
 * they are driven: tests/donation_a11y_test.ts (donation and kiosk states),
 * tests/result_pages_browser_test.ts (result and cancel pages with data),
 * tests/admin_auth_browser_test.ts (sign-in and register with errors) and
 * tests/admin_dashboard_browser_test.ts (the dashboard with data, the waiting screen).
 */
import assert from "node:assert/strict";
import { PAGE_PATHS, startTestApp } from "@/tests/helpers/app.ts";
import { runAxe } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser } from "@/tests/helpers/browser.ts";
import { createPayment, newDonor } from "@/tests/helpers/payments.ts";

browserTest("axe: every page, en and he, has no WCAG A/AA violation", async (t) => {
  const app = await startTestApp({
    env: { FEATURE_MONTHLY_PAYMENT: "1", FEATURE_TEST_TERMINAL_PAYMENT: "1" },
  });
  const browser = await launchBrowser();
  try {
    const userId = await newDonor(app, "Dana");
    const payment = await createPayment(app, {
      amount: 20,
      currency: "nis",
      userId,
      isMonthly: false,
      language: "en",
    });
    assert.equal(payment.status, 200, JSON.stringify(payment.body));
    for (const lang of ["en", "he"] as const) {
      const context = await browser.newContext({ locale: lang === "he" ? "he-IL" : "en-US" });
      const page = await context.newPage();
      const paths = [
        ...PAGE_PATHS.filter((p) => !p.startsWith("admin")).map((p) => `/${lang}/${p}`),
        `/${lang}/cancel-subscription?userId=${userId}`,
        `/${lang}/no-such-page`,
        new URL(payment.body.url, app.url).pathname,
        "/api/docs",
      ];
      for (const path of paths) {
        await t.step(`${lang} ${path}`, async () => {
          const res = await page.goto(`${app.url}${path}`);
          assert.ok(res && res.status() < 500, `${path}: ${res?.status()}`);
          await page.waitForLoadState("load");
          const audit = await runAxe(page);
          assert.ok(audit.passes > 0, `${path}: axe ran`);
          assert.deepEqual(audit.violations, [], path);
        });
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await app.close();
  }
});
