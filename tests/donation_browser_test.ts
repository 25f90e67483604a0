/**
 * The donation page in Chromium: a tier paid through the sandbox's card page to the success page,
 * the no-amount alert, on-blur messages, the other amount in dollars, and the whole online flow
 * with JavaScript disabled, in English and Hebrew.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { payInSandboxFrame } from "@/tests/helpers/payments.ts";
import { startTestApp } from "@/tests/helpers/app.ts";

const DONOR = { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" };

async function fillDonor(page: Page, donor: Record<string, string> = DONOR) {
  for (const [name, value] of Object.entries(donor)) await page.fill(`#donor-${name}`, value);
}

async function enhanced(page: Page) {
  await page.waitForSelector('form.donation-form[data-enhanced="true"]');
}

const LABELS: Record<string, { chosen: string; none: string }> = {
  en: { chosen: "Donate 100 NIS one-time", none: "Donate" },
  he: { chosen: "תרומה חד־פעמית של 100 ש״ח", none: "לתרומה" },
};

for (const lang of ["en", "he"]) {
  browserTest(
    `donation page (${lang}): a one-time tier through the sandbox card page to success`,
    async () => {
      const app = await startTestApp();
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage();
        const watched = await watchPage(page);
        await page.goto(`${app.url}/${lang}/`);
        await enhanced(page);
        await page.click('label.tier-card:has(input[value="tier-2"])');
        assert.ok(await page.isChecked('input[value="tier-2"]'));
        const button = page.locator(".donate-button");
        assert.equal(await button.textContent(), LABELS[lang].chosen);
        // Choosing the selected tier again deselects it.
        await page.click('label.tier-card:has(input[value="tier-2"])');
        assert.ok(!await page.isChecked('input[value="tier-2"]'));
        assert.equal(await button.textContent(), LABELS[lang].none);
        await page.click('label.tier-card:has(input[value="tier-2"])');
        await fillDonor(page);
        await button.click();
        await page.waitForSelector('.loading[role="status"]');
        const iframe = page.locator("iframe.payment-frame");
        await iframe.waitFor();
        assert.equal(await iframe.getAttribute("height"), "500");
        assert.ok(await iframe.getAttribute("title"));
        await payInSandboxFrame(page);
        await page.waitForURL(new RegExp(`/${lang}/success\\?SandboxTransactionId=`));
        assert.deepEqual(watched.all(), []);
      } finally {
        await browser.close();
        await app.close();
      }
    },
  );
}

browserTest("donation page: the no-amount alert, on-blur messages and the other amount", async () => {
  const app = await startTestApp();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const watched = await watchPage(page);
    await page.goto(`${app.url}/en/`);
    await enhanced(page);

    // On blur: each field's message, tied to the field.
    await page.focus("#donor-firstName");
    await page.focus("#donor-lastName");
    await page.waitForSelector("#donor-firstName-error");
    assert.equal(await page.textContent("#donor-firstName-error"), "Please enter your first name");
    assert.equal(await page.getAttribute("#donor-firstName", "aria-invalid"), "true");
    assert.equal(await page.getAttribute("#donor-firstName", "aria-describedby"), "donor-firstName-error");
    await page.fill("#donor-email", "dana@");
    await page.focus("#donor-country");
    assert.equal(await page.textContent("#donor-email-error"), "Invalid email address");
    await page.fill("#donor-firstName", "Dana");
    assert.equal(await page.locator("#donor-firstName-error").count(), 0, "fixed fields lose the message");

    // Nothing chosen: an inline alert, nothing sent.
    await fillDonor(page);
    await page.click(".donate-button");
    assert.equal(
      await page.textContent('.form-alert[role="alert"]'),
      "Please select a membership or other amount",
    );
    assert.equal(await page.locator("iframe").count(), 0);

    // The other amount, in dollars by default; below 1 is refused.
    await page.click(".other-toggle");
    assert.ok(await page.isChecked('input[name="otherCurrency"][value="dollars"]'));
    await page.fill('input[name="otherAmount"]', "0.5");
    await page.click(".donate-button");
    assert.equal(await page.textContent('.form-alert[role="alert"]'), "Error: Incorrect amount");
    await page.fill('input[name="otherAmount"]', "12.5");
    assert.equal(await page.textContent(".donate-button"), "Donate 12.5 dollars one-time");
    await page.click(".donate-button");
    await page.locator("iframe.payment-frame").waitFor();
    const started = app.logs.filter((l) => l.msg === "payment started").at(-1)!;
    const payment = await app.store.payments.get(String(started.paymentId));
    assert.equal(payment?.amount, 1250);
    assert.equal(payment?.currency, 2);
    // Close returns to the form with the donor's input kept.
    await page.click(".payment-view a.button");
    await page.locator("#donor-email").waitFor();
    assert.equal(await page.inputValue("#donor-email"), DONOR.email);
    assert.equal(await page.locator("iframe").count(), 0);
    assert.deepEqual(watched.all(), []);
  } finally {
    await browser.close();
    await app.close();
  }
});

browserTest(
  "donation page: the screen-reader announcement is cleared once the email is corrected",
  async () => {
    const app = await startTestApp();
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const watched = await watchPage(page);
      await page.goto(`${app.url}/en/`);
      await enhanced(page);
      const live = page.locator('.payment-steps [aria-live="polite"]');
      const said = async () => (await live.textContent())?.trim() ?? "";

      // On blur: announced; corrected by typing: the message and the announcement go. (The other
      // fields are filled first, so leaving them announces nothing of their own.)
      await fillDonor(page);
      await page.fill("#donor-email", "dana@");
      await page.focus("#donor-country");
      assert.equal(await said(), "Invalid email address");
      await page.fill("#donor-email", "dana@example.org");
      assert.equal(await page.locator("#donor-email-error").count(), 0);
      assert.equal(await said(), "", "nothing left saying the corrected email is invalid");

      // Corrected and left (blur) after a wrong value announced on blur.
      await page.fill("#donor-email", "dana@x");
      await page.focus("#donor-country");
      assert.equal(await said(), "Invalid email address");
      await page.focus("#donor-email");
      await page.keyboard.type(".org");
      await page.focus("#donor-country");
      assert.equal(await said(), "");

      // On submit: the first problem is announced; correcting it clears the announcement.
      await page.click('label.tier-card:has(input[value="tier-2"])');
      await fillDonor(page, { ...DONOR, email: "dana@" });
      await page.click(".donate-button");
      assert.equal(await said(), "Invalid email address");
      await page.fill("#donor-email", DONOR.email);
      assert.equal(await said(), "");

      // Another field's fix leaves a different field's announcement alone.
      await page.fill("#donor-email", "x");
      await page.focus("#donor-firstName");
      assert.equal(await said(), "Invalid email address");
      await page.fill("#donor-firstName", "Dana Ruth");
      assert.equal(await said(), "Invalid email address");
      assert.deepEqual(watched.all(), []);
    } finally {
      await browser.close();
      await app.close();
    }
  },
);

for (const lang of ["en", "he"]) {
  browserTest(
    `donation page without JavaScript (${lang}): a tier through the card page to success`,
    async () => {
      const app = await startTestApp();
      const browser = await launchBrowser();
      try {
        const context = await browser.newContext({ javaScriptEnabled: false });
        const page = await context.newPage();
        await page.goto(`${app.url}/${lang}/`);
        // Without an amount: the alert, in place, with the input kept (422).
        await fillDonor(page);
        await page.click(".donate-button");
        await page.waitForSelector('.form-alert[role="alert"]');
        assert.equal(await page.inputValue("#donor-lastName"), DONOR.lastName);
        await page.click('label.tier-card:has(input[value="tier-1"])');
        await page.click(".donate-button");
        await page.locator("iframe.payment-frame").waitFor();
        assert.match(page.url(), new RegExp(`/${lang}/#payment$`));
        await payInSandboxFrame(page);
        await page.waitForURL(new RegExp(`/${lang}/success\\?SandboxTransactionId=`));
        await context.close();
      } finally {
        await browser.close();
        await app.close();
      }
    },
  );
}
