/**
 * The emailed link's limits in Chromium, in English and Hebrew (issue 23): a donor opens the manage
 * link (its page's button, no JavaScript needed), sees the notice that the page shows only that
 * gift, presses "Update card" and lands on the step-up page, asks for the sign-in link there, opens
 * it from the outbox and presses its button: now the card update starts. Then, signed in, a manage
 * link of another address shows the choice, and keeping the current session keeps it. Axe finds
 * nothing on the link's page, the account page with the notice, the step-up page before and after
 * its button, and the choice.
 */
import assert from "node:assert/strict";
import { signInKey, signInToken } from "@/lib/donor_portal/sign_in.ts";
import { translator } from "@/lib/core/i18n.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { manageLinkUrl } from "@/tests/helpers/donor_portal.ts";
import { donorFixture, subscriptionFixture } from "@/tests/storage/fixtures.ts";

const WAIT = 15_000;

browserTest("manage link: a limited page, step-up by a one-time link, the choice (en, he)", async (t) => {
  const app = await startTestApp();
  const browser = await launchBrowser();
  try {
    for (const lang of ["en", "he"] as const) {
      await t.step(lang, async () => {
        const tr = translator(lang);
        const email = `dana.${lang}@example.org`;
        const donor = await app.store.donors.create(donorFixture({ firstName: "Dana", email }));
        const other = await app.store.donors.create(
          donorFixture({ firstName: "Omer", email: `omer.${lang}@example.org` }),
        );
        const gift = await app.store.subscriptions.create(subscriptionFixture({
          donorId: donor.id,
          provider: "sandbox",
          cardMasked: "458045******4580",
          amount: 5_000,
          currency: 1,
          nextPaymentDate: "2099-01-10T09:00:00.000Z",
        }));
        const context = await browser.newContext({
          bypassCSP: true,
          locale: lang === "he" ? "he-IL" : "en-US",
        });
        context.setDefaultTimeout(WAIT);
        const page = await context.newPage();
        const watched = await watchPage(page);
        const audit = (what: string) => assertAxeClean(page, `${lang}: ${what}`);
        try {
          await page.goto(await manageLinkUrl(app, donor.id, lang));
          await page.getByText(email).waitFor();
          await audit("the manage link's page");
          await page.getByRole("button", { name: tr("portalAccess.open.button") }).click();
          await page.waitForURL(`${app.url}/${lang}/account`);
          await page.getByText(tr("portalAccess.manageNotice")).waitFor();
          await audit("the account page opened by the link");

          // A card change needs more: the step-up page, whose button emails a sign-in link.
          await page.getByRole("button", { name: tr("portalCard.button") }).click();
          await page.waitForURL(`${app.url}/${lang}/account/confirm?for=card`);
          await page.getByText(tr("portalAccess.reason.card")).waitFor();
          await audit("the step-up page");
          await page.getByRole("button", { name: tr("portalAccess.stepUpButton") }).click();
          await page.getByText(tr("account.sent", { email })).waitFor();
          await audit("the step-up link sent");
          const [sent] = (await app.store.outbox.listRecent(100)).filter((m) =>
            m.kind === "sign-in-link" && "donorId" in m.to && m.to.donorId === donor.id
          );
          assert.ok(sent, "a sign-in link to the address on file");
          const link = await signInToken(
            await signInKey(app.config.appSecret),
            (sent.data as { signInId: string }).signInId,
          );
          await page.goto(`${app.url}/${lang}/account/sign-in?t=${link}`);
          await page.getByRole("button", { name: tr("account.email.button") }).click();
          await page.waitForURL(`${app.url}/${lang}/account`);
          assert.equal(await page.getByText(tr("portalAccess.manageNotice")).count(), 0);
          await page.getByRole("button", { name: tr("portalCard.button") }).click();
          await page.waitForURL(/\/sandbox\/pay\//);
          assert.equal((await app.store.subscriptions.get(gift.id))?.status, "active");

          // Signed in: another address's manage link asks; keeping the session keeps it.
          await page.goto(await manageLinkUrl(app, other.id, lang));
          await page.getByText(tr("portalAccess.switch.intro", { current: email })).waitFor();
          await audit("the choice");
          await page.getByRole("link", { name: tr("portalAccess.switch.keep", { current: email }) }).click();
          await page.waitForURL(`${app.url}/${lang}/account`);
          await page.getByText(email).first().waitFor();
          assert.deepEqual(watched.all(), [], "no page problems");
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
