/**
 * A member in Chromium, in English and Hebrew (issue 27, items 3, 4 and 7): a gift at a level
 * (the real payment code, recorded twice) sends one welcome email with the member card attached and
 * the manage link; the link opens the account page, whose membership link shows the level, state,
 * date, number, the card's PDF and picture links and "renew now"; the PDF the page links to holds
 * a QR code `zbarimg` reads and the public key verifies. Screenshots at 1280 and 390 px
 * (`/tmp/member-card-shots/`), axe clean on the page.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { verifyMemberCardToken } from "@/lib/memberships/mod.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { at, world } from "@/tests/helpers/membership_world.ts";
import { scanPdfQr } from "@/tests/helpers/qr.ts";

const SHOTS = "/tmp/member-card-shots";

browserTest("a member's welcome email and membership page, with a card that verifies (en, he)", async (t) => {
  const app = await startTestApp();
  const browser = await launchBrowser();
  await Deno.mkdir(SHOTS, { recursive: true });
  const w = world(app.store);
  try {
    for (const lang of ["en", "he"] as const) {
      await t.step(lang, async () => {
        const tr = translator(lang);
        const email = `member.${lang}.${crypto.randomUUID().slice(0, 8)}@example.org`;
        const donor = await w.donor(email);
        await w.give(donor, at(0), { amount: 100, levelId: 2 });
        const messages = (await app.store.outbox.listRecent(100)).filter((m) =>
          m.kind === "membership" && (m.data as { email: string }).email === email
        );
        assert.equal(messages.length, 1);
        const welcome = (await app.services.mail.render({ ...messages[0], language: lang }))!;
        assert.equal(welcome.dir, lang === "he" ? "rtl" : "ltr");
        assert.equal(welcome.attachments.length, 1);
        assert.equal(welcome.attachments[0].contentType, "application/pdf");
        const link = welcome.text.match(/https?:\/\/\S+\/account\?token=\S+/)?.[0];
        assert.ok(link, "the email carries the manage link");

        const context = await browser.newContext({ locale: lang === "he" ? "he-IL" : "en-US" });
        const page = await context.newPage();
        await watchPage(page);
        try {
          await page.goto(link.replace(/^https?:\/\/[^/]+/, app.url));
          await page.getByRole("button").first().click();
          await page.waitForURL(`${app.url}/${lang}/account`);
          await page.getByRole("link", { name: tr("portalMembership.link") }).click();
          await page.waitForURL(`${app.url}/${lang}/account/membership`);
          assert.equal(await page.locator("html").getAttribute("dir"), lang === "he" ? "rtl" : "ltr");
          await page.getByText(tr("portalMembership.states.active")).waitFor();
          await assertAxeClean(page, `${lang}: the membership page`);
          for (const width of [1280, 390]) {
            await page.setViewportSize({ width, height: 900 });
            await page.screenshot({ path: `${SHOTS}/membership-${lang}-${width}.png`, fullPage: true });
          }
          const href = await page.getByRole("link", {
            name: tr("portalMembership.pdfFor", { name: "Dana Levi" }),
          })
            .getAttribute("href");
          const pdf = await page.request.get(`${app.url}${href}`);
          assert.equal(pdf.headers()["content-type"], "application/pdf");
          const jwk = await (await page.request.get(`${app.url}/.well-known/member-card-key.json`)).json();
          const card = await verifyMemberCardToken(await scanPdfQr(new Uint8Array(await pdf.body())), jwk);
          const membership = (await app.store.memberships.get(email))!;
          assert.deepEqual([card.number, card.levelId, card.name], [membership.number, 2, "Dana Levi"]);
          const png = await page.request.get(`${app.url}/${lang}/account/membership/card.png?holder=1`);
          await Deno.writeFile(`${SHOTS}/card-${lang}.png`, new Uint8Array(await png.body()));
          await Deno.writeFile(`${SHOTS}/welcome-${lang}.pdf`, welcome.attachments[0].content);
          await Deno.writeTextFile(`${SHOTS}/welcome-${lang}.html`, welcome.html);
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
