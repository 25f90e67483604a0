/**
 * "Add to Apple Wallet" in Chromium, in English and Hebrew (issue 27, item 3): with the museum's pass
 * certificates set, a household's membership page has a badge per cardholder, named for that
 * cardholder; following it downloads the signed pass of that cardholder. Axe clean; screenshots at
 * 1280 and 390 px (`/tmp/wallet-shots/`).
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { changeCardholders } from "@/lib/donor_portal/mod.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { openManageLink } from "@/tests/helpers/donor_portal.ts";
import { memberFixture } from "@/tests/helpers/membership_world.ts";
import { assertPassSignature, makePassCertificates, openPass } from "@/tests/helpers/wallet.ts";

const SHOTS = "/tmp/wallet-shots";

browserTest("Add to Apple Wallet: a badge per cardholder, each downloading its pass (en, he)", async (t) => {
  const certs = makePassCertificates();
  const app = await startTestApp({ env: certs.env });
  const browser = await launchBrowser();
  await Deno.mkdir(SHOTS, { recursive: true });
  try {
    const { donor } = await memberFixture(app.store, 3);
    await changeCardholders(app.store, donor.email, ["Dana Levi", "אבי לוי"]);
    for (const lang of ["en", "he"] as const) {
      await t.step(lang, async () => {
        const tr = translator(lang);
        const [name, value] = (await openManageLink(app, donor.id, lang)).split("=");
        const context = await browser.newContext({ locale: lang === "he" ? "he-IL" : "en-US" });
        await context.addCookies([{ name, value, url: app.url }]);
        const page = await context.newPage();
        await watchPage(page);
        try {
          await page.goto(`${app.url}/${lang}/account/membership`);
          const badge = page.getByRole("link", { name: tr("walletPass.addFor", { name: "אבי לוי" }) });
          await badge.waitFor();
          assert.equal(await page.getByRole("link", { name: tr("walletPass.add") }).count(), 2);
          assert.equal((await badge.textContent())?.trim(), tr("walletPass.add"));
          await assertAxeClean(page, `${lang}: the membership page with Apple Wallet`);
          for (const width of [1280, 390]) {
            await page.setViewportSize({ width, height: 900 });
            await page.screenshot({ path: `${SHOTS}/wallet-${lang}-${width}.png`, fullPage: true });
          }
          const [download] = await Promise.all([page.waitForEvent("download"), badge.click()]);
          assert.match(download.suggestedFilename(), /^member-card-.+-2\.pkpass$/);
          const bytes = await Deno.readFile((await download.path())!);
          const { files, pass } = openPass(bytes);
          assert.equal(pass.storeCard.primaryFields[0].value, "אבי לוי");
          assert.equal(pass.storeCard.primaryFields[0].label, tr("walletPass.member"));
          assertPassSignature(files, certs);
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
