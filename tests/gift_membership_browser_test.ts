/**
 * Gift memberships on the donation page (issue 28, item 3), in a real browser, in English and
 * Hebrew: a level chosen, "a gift for someone else" ticked, the recipient filled in, paid on the
 * sandbox's card page, the success page; the membership is the recipient's, the transaction the
 * giver's. A bad recipient address is refused in place, in the page's language, before anything
 * is created. Without JavaScript the same form posts and is checked by the server.
 */
import assert from "node:assert/strict";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { payInSandboxFrame } from "@/tests/helpers/payments.ts";
import { startTestApp } from "@/tests/helpers/app.ts";

const DONOR = { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" };
const BAD_EMAIL: Record<string, string> = {
  en: "Enter the recipient's email address.",
  he: "הזינו את כתובת הדוא״ל של המקבל/ת.",
};

for (const lang of ["en", "he"]) {
  browserTest(
    `gift membership (${lang}): the recipient filled in, paid in the sandbox, to success`,
    async () => {
      const app = await startTestApp();
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage({ viewport: { width: 390, height: 900 } });
        const watched = await watchPage(page);
        await page.goto(`${app.url}/${lang}/`);
        await page.waitForSelector('form.donation-form[data-enhanced="true"]');
        await page.click('label.tier-card:has(input[value="tier-2"])');
        assert.ok(!await page.isVisible("#giftName"), "the gift's fields hidden until asked for");
        assert.ok(await page.isVisible(".auto-renew-consent"), "a level for oneself may renew itself");
        await page.click('label[for="gift-toggle"]');
        // A gift does not renew on the giver's card: the consent goes with the gift box.
        assert.ok(!await page.isVisible(".auto-renew-consent"), "no automatic renewal for a gift");
        await page.fill("#giftName", "Noa Cohen");
        await page.fill("#giftEmail", "noa@");
        await page.fill("#giftMessage", "Happy birthday!");
        await page.check('input[name="giftReminders"][value="both"]');
        for (const [name, value] of Object.entries(DONOR)) await page.fill(`#donor-${name}`, value);

        await page.click(".donate-button");
        await page.waitForSelector(".form-alert");
        assert.equal(await page.textContent(".form-alert"), BAD_EMAIL[lang]);
        assert.equal(await page.evaluate(() => document.activeElement?.id), "giftEmail");
        assert.equal(await app.store.memberships.get("noa@example.org"), null);

        await page.fill("#giftEmail", "noa@example.org");
        await page.click(".donate-button");
        await page.locator("iframe.payment-frame").waitFor();
        await payInSandboxFrame(page);
        await page.waitForURL(new RegExp(`/${lang}/success\\?SandboxTransactionId=`));
        assert.deepEqual(watched.all(), []);

        const membership = await app.store.memberships.get("noa@example.org");
        assert.ok(membership, "the recipient's membership");
        assert.equal(membership.terms[0].gift?.reminders, "both");
        assert.equal(membership.terms[0].gift?.message, "Happy birthday!");
        assert.equal(await app.store.memberships.get("dana@example.org"), null, "not the giver's");
        const delivery = (await app.store.outbox.listRecent(50)).find((m) =>
          m.kind === "gift-membership-delivery"
        );
        assert.equal(delivery?.language, lang, "the recipient's language: the page's by default");
      } finally {
        await browser.close();
        await app.close();
      }
    },
  );
}

browserTest(
  "gift membership without JavaScript: the server checks the gift and keeps the input",
  async () => {
    const app = await startTestApp();
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(`${app.url}/en/`);
      await page.check('input[value="tier-2"]');
      await page.check("#gift-toggle");
      await page.fill("#giftName", "Noa Cohen");
      await page.fill("#giftEmail", "noa@example.org");
      await page.fill("#giftDate", "2020-01-01");
      for (const [name, value] of Object.entries(DONOR)) await page.fill(`#donor-${name}`, value);
      await page.click(".donate-button");
      await page.waitForSelector("#giftDate-error");
      assert.equal(
        await page.textContent("#giftDate-error"),
        "Choose a delivery date from today to 90 days ahead.",
      );
      assert.equal(await page.inputValue("#giftName"), "Noa Cohen", "the input kept");
      assert.ok(await page.isChecked("#gift-toggle"));

      await page.fill("#giftDate", "");
      await page.click(".donate-button");
      await page.locator("iframe.payment-frame").waitFor();
      const payments = await app.store.payments.listPending({
        from: "2000-01-01T00:00:00.000Z",
        to: "2100-01-01T00:00:00.000Z",
      }, 10);
      assert.equal(payments.length, 1);
      assert.equal(payments[0].gift?.language, "en");
      assert.equal(
        payments[0].gift?.deliverAt.slice(0, 10),
        new Date().toISOString().slice(0, 10),
        "empty: today",
      );
    } finally {
      await browser.close();
      await app.close();
    }
  },
);
