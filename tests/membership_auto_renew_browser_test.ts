/**
 * Automatic renewal in Chromium, in English and Hebrew (issue 27, items 5 and 7): the donor ticks
 * "renew automatically every year" on the donation page at a tier and pays; the portal's
 * membership page shows it on with the card's last four digits and the next charge date; the notice
 * email (rendered, right to left in Hebrew) states amount, date and card and carries the turn-off
 * link, whose page shows one button; the portal's button turns it off (the kept card dropped).
 * Screenshots at 1280 and 390 px in `/tmp/auto-renew-shots/`; axe clean on the portal page.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { payInSandboxFrame } from "@/tests/helpers/payments.ts";

const SHOTS = "/tmp/auto-renew-shots";

browserTest(
  "automatic renewal: consent on the donation page, on in the portal, turned off (en, he)",
  async (t) => {
    const app = await startTestApp();
    const browser = await launchBrowser();
    await Deno.mkdir(SHOTS, { recursive: true });
    try {
      for (const lang of ["en", "he"] as const) {
        await t.step(lang, async () => {
          const tr = translator(lang);
          const email = `auto.${lang}.${crypto.randomUUID().slice(0, 8)}@example.org`;
          const context = await browser.newContext({ locale: lang === "he" ? "he-IL" : "en-US" });
          const page = await context.newPage();
          await watchPage(page);
          const shoot = async (name: string) => {
            for (const width of [1280, 390]) {
              await page.setViewportSize({ width, height: 900 });
              await page.screenshot({ path: `${SHOTS}/${name}-${lang}-${width}.png`, fullPage: true });
            }
          };
          try {
            await page.goto(`${app.url}/${lang}/`);
            await page.waitForSelector('form.donation-form[data-enhanced="true"]');
            const consent = page.getByLabel(tr("membershipAutoRenew.consent.label"));
            assert.equal(await consent.isVisible(), false, "not offered before a tier is chosen");
            await page.click('label.tier-card:has(input[value="tier-2"])');
            await consent.check();
            const who = { firstName: "Dana", lastName: "Levi", email, country: "Israel" };
            for (const [name, value] of Object.entries(who)) await page.fill(`#donor-${name}`, value);
            await page.locator(".auto-renew-consent").screenshot({ path: `${SHOTS}/consent-${lang}.png` });
            await page.click(".donate-button");
            await page.locator("iframe.payment-frame").waitFor();
            await payInSandboxFrame(page);
            await page.waitForURL(new RegExp(`/${lang}/success\\?`));
            const membership = (await app.store.memberships.get(email))!;
            assert.equal(membership.autoRenew?.last4, "9015", "the card is kept with the consent");

            // The welcome email's manage link signs the donor in to the portal.
            const messages = await app.store.outbox.listRecent(200);
            const welcome = messages.find((m) =>
              m.kind === "membership" && (m.data as { email: string }).email === email
            )!;
            const rendered = (await app.services.mail.render({ ...welcome, language: lang }))!;
            const link = rendered.text.match(/https?:\/\/\S+\/account\?token=\S+/)![0];

            // The notice, as it would go out 7 days before the charge.
            const notice = (await app.services.mail.render({
              ...welcome,
              key: `notice-${lang}`,
              kind: "membership-autorenew-notice",
              data: { email, end: membership.end },
              language: lang,
            }))!;
            assert.equal(notice.dir, lang === "he" ? "rtl" : "ltr");
            assert.match(notice.text, /9015/);
            const offLink = notice.text.match(/https?:\/\/\S+\/membership\/auto-renew\?t=\S+/)?.[0];
            assert.ok(offLink, "the notice carries the turn-off link");
            await Deno.writeTextFile(`${SHOTS}/notice-${lang}.html`, notice.html);
            await page.setContent(notice.html);
            await shoot("notice");
            await page.goto(offLink.replace(/^https?:\/\/[^/]+/, app.url));
            await page.getByRole("button", { name: tr("membershipAutoRenew.offPage.button") }).waitFor();
            await shoot("off-page");

            await page.goto(link.replace(/^https?:\/\/[^/]+/, app.url));
            await page.getByRole("button").first().click();
            await page.waitForURL(`${app.url}/${lang}/account`);
            await page.goto(`${app.url}/${lang}/account/membership`);
            await page.getByText(tr("membershipAutoRenew.portal.on"), { exact: true }).waitFor();
            assert.match(await page.locator(".auto-renew").innerText(), /9015/);
            await assertAxeClean(page, `${lang}: the membership page with auto-renewal on`);
            await shoot("portal-on");
            await page.getByRole("button", { name: tr("membershipAutoRenew.portal.turnOff") }).click();
            await page.waitForURL(/autorenew=off/);
            await page.getByText(tr("membershipAutoRenew.portal.turnedOff")).waitFor();
            await page.getByText(tr("membershipAutoRenew.portal.off"), { exact: true }).waitFor();
            await assertAxeClean(page, `${lang}: the membership page with auto-renewal off`);
            await shoot("portal-off");
            assert.equal(
              (await app.store.memberships.get(email))!.autoRenew,
              undefined,
              "the kept card dropped",
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
  },
);
