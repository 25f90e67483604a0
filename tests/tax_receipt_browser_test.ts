/**
 * The donation form's tax-receipt part in Chromium (issue 14), in English and Hebrew: ticking "I
 * want an Israeli tax receipt" reveals the ID field; a wrong check digit shows the translated
 * error on blur and on submit (focus on the field, nothing sent); a right one goes through to the
 * payment frame and is stored with the donor; a gift in dollars hides the part and sends no ID;
 * axe finds no problem with the field shown, with and without its error. Without JavaScript the
 * same: the stylesheet reveals the field, the server checks it.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { translator } from "@/lib/core/i18n.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser } from "@/tests/helpers/browser.ts";

const DONOR = { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" };

async function fillDonor(page: Page) {
  for (const [name, value] of Object.entries(DONOR)) await page.fill(`#donor-${name}`, value);
}

/** The donor of the last payment the app started. */
async function lastDonor(app: TestApp) {
  const started = app.logs.filter((l) => l.msg === "payment started").at(-1);
  assert.ok(started, "a payment was started");
  const payment = await app.store.payments.get(String(started.paymentId));
  return await app.store.donors.get(payment!.donorId);
}

for (const lang of ["en", "he"] as const) {
  browserTest(
    `tax receipt (${lang}): the box reveals the ID field, its check digit is checked, a right one is stored`,
    async () => {
      const tr = translator(lang);
      const app = await startTestApp();
      const browser = await launchBrowser();
      try {
        const context = await browser.newContext({ bypassCSP: true }); // lets axe be injected
        const page = await context.newPage();
        const donorBodies: Record<string, unknown>[] = [];
        page.on("request", (req) => {
          if (req.url().endsWith("/api/user") && req.method() === "POST") {
            donorBodies.push(req.postDataJSON());
          }
        });
        await page.goto(`${app.url}/${lang}/`);
        await page.waitForSelector('form.donation-form[data-enhanced="true"]');

        assert.equal(await page.isVisible("#donor-israeliId"), false, "the ID field waits for the box");
        assert.equal(await page.textContent('label[for="donor-taxReceipt"]'), tr("taxReceipt.wantReceipt"));
        await page.check("#donor-taxReceipt");
        await page.locator("#donor-israeliId").waitFor({ state: "visible" });
        assert.equal(await page.textContent('label[for="donor-israeliId"]'), tr("taxReceipt.idLabel"));
        await assertAxeClean(page, `/${lang}/ the ID field shown`);

        // A wrong check digit: the translated error on blur.
        await page.click('label.tier-card:has(input[value="tier-2"])');
        await fillDonor(page);
        await page.fill("#donor-israeliId", "123456789");
        await page.locator("#donor-israeliId").blur();
        assert.equal(await page.textContent("#donor-israeliId-error"), tr("taxReceipt.idCheckDigit"));
        assert.equal(await page.getAttribute("#donor-israeliId", "aria-invalid"), "true");
        await assertAxeClean(page, `/${lang}/ the ID field with its error`);

        // Submitting with it: focus on the field, nothing sent.
        await page.click(".donate-button");
        await page.waitForFunction(() => document.activeElement?.id === "donor-israeliId");
        assert.equal(donorBodies.length, 0, "a donor was created with a wrong ID number");

        // A right one: the error goes as it is typed, the gift goes through, the ID is stored.
        await page.fill("#donor-israeliId", "12345678-2");
        assert.equal(await page.locator("#donor-israeliId-error").count(), 0);
        await page.click(".donate-button");
        await page.locator("iframe.payment-frame").waitFor();
        assert.deepEqual(donorBodies.map((b) => b.israeliId), ["12345678-2"]);
        assert.equal((await lastDonor(app))?.israeliId, "123456782");
        await context.close();
      } finally {
        await browser.close();
        await app.close();
      }
    },
  );
}

browserTest("tax receipt: a gift in dollars hides the part and sends no ID number", async () => {
  const app = await startTestApp();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const donorBodies: Record<string, unknown>[] = [];
    page.on("request", (req) => {
      if (req.url().endsWith("/api/user") && req.method() === "POST") donorBodies.push(req.postDataJSON());
    });
    await page.goto(`${app.url}/en/`);
    await page.waitForSelector('form.donation-form[data-enhanced="true"]');
    await page.check("#donor-taxReceipt");
    await page.fill("#donor-israeliId", "123456789"); // wrong, but not asked for in dollars
    await page.click(".other-toggle");
    await page.fill('input[name="otherAmount"]', "50");
    await page.check('input[name="otherCurrency"][value="dollars"]');
    await page.locator(".tax-receipt").waitFor({ state: "hidden" });
    // Shekels again: the part is back, as the donor left it.
    await page.check('input[name="otherCurrency"][value="nis"]');
    await page.locator("#donor-israeliId").waitFor({ state: "visible" });
    assert.equal(await page.inputValue("#donor-israeliId"), "123456789");
    await page.check('input[name="otherCurrency"][value="dollars"]');
    await page.locator(".tax-receipt").waitFor({ state: "hidden" });
    await fillDonor(page);
    await page.click(".donate-button");
    await page.locator("iframe.payment-frame").waitFor();
    assert.equal(donorBodies.length, 1);
    assert.equal(donorBodies[0].israeliId, undefined, "an ID number was sent for a gift in dollars");
    assert.equal((await lastDonor(app))?.israeliId, null);
  } finally {
    await browser.close();
    await app.close();
  }
});

browserTest(
  "tax receipt without JavaScript (he): the box reveals the field, the server checks it",
  async () => {
    const tr = translator("he");
    const app = await startTestApp();
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${app.url}/he/`);
      assert.equal(
        await page.isVisible("#donor-israeliId"),
        false,
        "the stylesheet hides the field at first",
      );
      await page.click('label.tier-card:has(input[value="tier-1"])');
      await fillDonor(page);
      await page.check("#donor-taxReceipt");
      assert.equal(await page.isVisible("#donor-israeliId"), true, "the stylesheet reveals the field");
      await page.fill("#donor-israeliId", "123456789");
      await page.click(".donate-button");
      await page.waitForSelector("#donor-israeliId-error");
      assert.equal(await page.textContent("#donor-israeliId-error"), tr("taxReceipt.idCheckDigit"));
      assert.equal(await page.isChecked("#donor-taxReceipt"), true);
      await page.fill("#donor-israeliId", "123456782");
      await page.click(".donate-button");
      await page.locator("iframe.payment-frame").waitFor();
      assert.equal((await lastDonor(app))?.israeliId, "123456782");
      await context.close();
    } finally {
      await browser.close();
      await app.close();
    }
  },
);
