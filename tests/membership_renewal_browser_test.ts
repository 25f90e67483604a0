/**
 * A member renews from the reminder email (issue 27, item 5), in Chromium on the sandbox, in English
 * and Hebrew: a gift at a level makes the member; the renewal pass, a month before the end, enqueues
 * the 30-day reminder in the gift's language; the email as rendered (right to left in Hebrew) carries
 * the renewal link; the link opens the donation page with the member's level selected and the
 * member's details filled in; paying there extends the term by a year from the old end.
 */
import assert from "node:assert/strict";
import { createLogger } from "@/lib/core/log.ts";
import { manageLinkKey, signInKey } from "@/lib/donor_portal/mod.ts";
import { addMonths, renewalKey, runRenewalPass } from "@/lib/memberships/mod.ts";
import { createRenderer } from "@/lib/outbox/templates/mod.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { giveAtTier, GOOD_CARD, payInSandboxFrame } from "@/tests/helpers/payments.ts";
import type { Browser } from "playwright-core";

const DAY = 86_400_000;
const WAIT = 20_000;

async function renew(app: TestApp, browser: Browser, lang: "en" | "he") {
  const email = `member-${lang}@example.org`;
  const firstName = lang === "he" ? "יעל" : "Anna";
  // bypassCSP lets axe be injected.
  const context = await browser.newContext({ locale: lang === "he" ? "he-IL" : "en-US", bypassCSP: true });
  context.setDefaultTimeout(WAIT);
  try {
    const page = await context.newPage();
    const watched = await watchPage(page);
    // A gift at level 2 makes the member.
    await giveAtTier(page, app.url, lang, "one-time", { email, firstName });
    const joined = await app.store.memberships.get(email);
    assert.ok(joined, `${lang}: a member`);

    // A month before the end, the renewal pass enqueues the reminder, in the gift's language.
    const monthBefore = new Date(Date.parse(joined.end) - 30 * DAY + 3_600_000);
    await runRenewalPass({
      store: app.store,
      log: createLogger(() => {}),
      holder: "t",
      now: () => monthBefore,
    });
    const reminder = (await app.store.outbox.listRecent(100)).find((m) =>
      m.kind === "membership-reminder" && "donorId" in m.to && m.to.donorId === joined.donorId
    );
    assert.ok(reminder, `${lang}: a reminder`);
    assert.equal(reminder.language, lang);
    const render = createRenderer({
      store: app.store,
      publicUrl: app.url,
      manageKey: await manageLinkKey(app.config.appSecret),
      signInKey: await signInKey(app.config.appSecret),
      renewalKey: await renewalKey(app.config.appSecret),
      receiptAttachment: () => Promise.resolve(null),
    });
    const mail = await render(reminder);
    assert.ok(mail);
    assert.equal(mail.dir, lang === "he" ? "rtl" : "ltr");
    const link = mail.text.match(/https?:\/\/\S+\/\?renew=[\w.-]+/)?.[0];
    assert.ok(link, `${lang}: a renewal link in ${mail.text}`);

    // The link: level 2 selected, the member's details filled in, with the island running.
    await page.goto(link);
    await page.waitForSelector('form.donation-form[data-enhanced="true"]');
    assert.ok(await page.isChecked('input[value="tier-2"]'), `${lang}: the member's level selected`);
    assert.equal(await page.inputValue("#donor-firstName"), firstName);
    assert.equal(await page.inputValue("#donor-lastName"), "Levi");
    assert.equal(await page.inputValue("#donor-email"), email);
    assert.equal(await page.inputValue("#donor-country"), "Israel");
    assert.equal(await page.locator('.notice-success[role="status"]').count(), 1);
    await assertAxeClean(page, `${lang}: the renewal page`);
    await page.click(".donate-button");
    await page.locator("iframe.payment-frame").waitFor();
    await payInSandboxFrame(page, GOOD_CARD);
    await page.waitForURL(new RegExp(`/${lang}/success\\?`));
    assert.deepEqual(watched.all(), [], `${lang}: clean pages`);

    // A bad link: the usual page, nothing filled in, a notice; axe clean too.
    await page.goto(`${app.url}/${lang}/?renew=not-a-token`);
    await page.waitForSelector('form.donation-form[data-enhanced="true"]');
    assert.equal(await page.locator('.donate .form-alert[role="alert"]').count(), 1);
    assert.equal(await page.inputValue("#donor-email"), "");
    await assertAxeClean(page, `${lang}: a bad renewal link`);

    // A year more, from the old end.
    const renewed = await app.store.memberships.get(email);
    assert.equal(renewed?.end, addMonths(joined.end, 12));
    assert.deepEqual(renewed?.terms.map((t) => t.kind), ["join", "renewal"]);
    assert.equal(renewed?.number, joined.number);
  } finally {
    await context.close();
  }
}

browserTest("a member renews from the reminder's link, prefilled, in en and he", async () => {
  const app = await startTestApp();
  const browser = await launchBrowser();
  try {
    for (const lang of ["en", "he"] as const) await renew(app, browser, lang);
  } finally {
    await browser.close();
    await app.close();
  }
});
