/**
 * The donation page's island over a rate limit, in Chromium: the API answers 429 with
 * `Retry-After`, and the form's alert says so in the donor's language (Hebrew, right to left),
 * with the minutes to wait, instead of the API's English.
 */
import assert from "node:assert/strict";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { startTestApp } from "@/tests/helpers/app.ts";

const DONOR = { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" };

browserTest("donation page (he): over the rate limit, the island shows the translated message", async () => {
  const app = await startTestApp({ env: { RATE_LIMIT_PER_ADDRESS: "1", RATE_LIMIT_WINDOW_SECONDS: "600" } });
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const watched = await watchPage(page);
    for (const attempt of [1, 2]) {
      await page.goto(`${app.url}/he/`);
      await page.waitForSelector('form.donation-form[data-enhanced="true"]');
      await page.click('label.tier-card:has(input[value="tier-2"])');
      for (const [name, value] of Object.entries(DONOR)) await page.fill(`#donor-${name}`, value);
      await page.locator(".donate-button").click();
      if (attempt === 1) {
        // The first donation from this address goes ahead to the payment frame.
        await page.locator("iframe.payment-frame").waitFor();
        // Its page loaded, so leaving for the second attempt aborts nothing.
        await page.frameLocator("iframe.payment-frame").locator("main.sandbox").waitFor();
        continue;
      }
      const alert = page.locator('.form-alert[role="alert"]');
      await alert.waitFor();
      const text = await alert.textContent();
      assert.match(
        text ?? "",
        /^שגיאה: יותר מדי ניסיונות תרומה מחיבור זה\. יש להמתין (\d+) דק' ולנסות שוב\.$/,
      );
      const minutes = Number(text!.match(/(\d+)/)![1]);
      assert.ok(minutes >= 1 && minutes <= 10, `${minutes} minutes`);
      assert.equal(await page.getAttribute("html", "dir"), "rtl");
    }
    // The one problem the page had is the refused call itself (and Chromium's line about it).
    const { failedRequests, pageErrors, consoleErrors } = watched.problems;
    assert.deepEqual(failedRequests, [`POST ${app.url}/api/user: HTTP 429`]);
    assert.deepEqual(pageErrors, []);
    assert.ok(consoleErrors.every((line) => /status of 429/.test(line)), consoleErrors.join("\n"));
  } finally {
    await browser.close();
    await app.close();
  }
});
