/**
 * The manage link in Chromium, in English and Hebrew: a monthly donor opens the link from an email
 * (`?token=…`), sees their details, cancels with the orange button and sees the confirmation; an
 * expired link's page (right-to-left in Hebrew) sends a fresh link with its button (a plain form;
 * `manage_link_page_test.ts` posts it without a browser); a tampered link is refused. Axe finds nothing on any of these states.
 */
import assert from "node:assert/strict";
import type { MessageInput } from "@/lib/storage/message_types.ts";
import { translator } from "@/lib/core/i18n.ts";
import { createManageToken, MANAGE_LINK_TTL_MS, manageLinkKey } from "@/lib/donor_portal/manage_link.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { createPayment, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";

const WAIT = 15_000;

browserTest("manage link: open, cancel, expired → fresh link, tampered (en, he)", async (t) => {
  const app = await startTestApp();
  const enqueued: MessageInput[] = [];
  app.services.enqueueMessage = (message) => Promise.resolve(void enqueued.push(message));
  const browser = await launchBrowser();
  try {
    const key = await manageLinkKey(app.config.appSecret);
    for (const lang of ["en", "he"] as const) {
      await t.step(lang, async () => {
        const tr = translator(lang);
        const userId = await newDonor(app, lang === "he" ? "Yael" : "Anna");
        const created = await createPayment(app, {
          amount: 50,
          currency: "nis",
          userId,
          isMonthly: true,
          language: lang,
        });
        assert.equal(created.status, 200, JSON.stringify(created.body));
        await payOnSandboxPage(app, created.body.url);

        const context = await browser.newContext({
          bypassCSP: true, // lets axe be injected
          locale: lang === "he" ? "he-IL" : "en-US",
        });
        context.setDefaultTimeout(WAIT);
        const page = await context.newPage();
        const watched = await watchPage(page);
        const audit = (what: string) => assertAxeClean(page, what);
        try {
          // The link from the email: details, then cancel.
          const token = await createManageToken(key, userId);
          const opened = await page.goto(`${app.url}/${lang}/cancel-subscription?token=${token}`);
          assert.equal(opened?.status(), 200);
          assert.equal(await page.locator("html").getAttribute("dir"), lang === "he" ? "rtl" : "ltr");
          const monthly = page.locator(".details-list > div", { hasText: tr("cancel.monthlyActive") });
          assert.equal((await monthly.locator("dd").textContent())?.trim(), tr("cancel.yes"));
          await audit(`${lang}: token page`);
          await page.getByRole("button", { name: tr("cancel.cancelButton") }).click();
          await page.getByText(tr("cancel.cancelled")).waitFor();
          assert.equal((await monthly.locator("dd").textContent())?.trim(), tr("cancel.no"));
          assert.equal((await app.store.subscriptions.listByDonor(userId))[0].status, "cancelled");

          // An expired link: the page offers a fresh one, and the button asks for it.
          const old = await createManageToken(key, userId, new Date(Date.now() - MANAGE_LINK_TTL_MS - 1000));
          const expired = await page.goto(`${app.url}/${lang}/cancel-subscription?token=${old}`);
          assert.equal(expired?.status(), 410);
          await page.getByText(tr("manageLink.expired")).waitFor();
          await audit(`${lang}: expired link page`);
          const before = enqueued.length;
          await page.getByRole("button", { name: tr("manageLink.sendButton") }).click();
          await page.getByText(tr("manageLink.requested")).waitFor();
          assert.equal(enqueued.length, before + 1);
          assert.deepEqual(enqueued.at(-1)?.to, { donorId: userId });
          assert.equal(enqueued.at(-1)?.language, lang);
          await audit(`${lang}: fresh link requested`);

          // A tampered link: refused, translated, nothing to press but home.
          const bad = `${token.slice(0, -3)}${token.endsWith("AAA") ? "BBB" : "AAA"}`;
          const refused = await page.goto(`${app.url}/${lang}/cancel-subscription?token=${bad}`);
          assert.equal(refused?.status(), 400);
          await page.getByText(tr("manageLink.invalid")).waitFor();
          assert.equal(await page.locator("form").count(), 0);
          await audit(`${lang}: tampered link page`);
          // The only problems are the refusals' own statuses.
          assert.deepEqual(
            watched.all().filter((p) => !/\b(400|410)\b/.test(JSON.stringify(p))),
            [],
            `${lang}: clean pages`,
          );
        } finally {
          await context.close();
        }
      });
    }
  } finally {
    await browser.close();
    await app.close();
  }
});
