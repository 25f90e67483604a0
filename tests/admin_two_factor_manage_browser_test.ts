/**
 * A staff member managing their own two-factor sign-in in Chromium, in English and Hebrew (issue
 * 16): signed in with a code, on the two-factor page a wrong code is refused with the translated
 * message, a current code gets 10 new recovery codes (the old ones no longer sign in), and a later
 * code turns two-factor off; while an owner requires it, the page says it cannot be turned off and
 * offers no button. Codes are computed here, as an authenticator app would. Every state axe clean,
 * right to left in Hebrew, no console error but the refused code's.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { shellReady, signInToBackOffice } from "@/tests/helpers/admin_browser.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api } from "@/tests/helpers/http.ts";
import { codeSequence, enrolWithSecret, totpCode } from "@/tests/helpers/two_factor.ts";

const WAIT = 15_000;
const PASSWORD = "ledger-and-ink-2026";

browserTest("two-factor in Chromium (en, he): new recovery codes, then turned off", async (t) => {
  const app = await startTestApp({ env: { ADMIN_REGISTRATION: "open" } });
  const browser = await launchBrowser();
  try {
    for (const lang of ["en", "he"] as const) {
      await t.step(lang, async () => {
        const tr = translator(lang);
        const admin = { name: `Noa ${lang}`, email: `noa.${lang}@museum.org`, password: PASSWORD };
        const registered = await api(app.url, "POST", "/api/auth/admin/register", admin);
        assert.equal(registered.status, 201);
        const secret = await enrolWithSecret(app.store, app.config.appSecret, registered.body.id);
        // Each code a later time step than the last, and one the server accepts when it is used.
        const nextCode = codeSequence(secret);
        const context = await browser.newContext({ locale: lang === "he" ? "he-IL" : "en-US" });
        try {
          const page = await context.newPage();
          const watched = await watchPage(page);
          // The password, then a code.
          await page.goto(`${app.url}/${lang}/login`);
          await page.locator("button[type=submit]:not([disabled])").waitFor({ timeout: WAIT });
          await page.fill("#login-email", admin.email);
          await page.fill("#login-password", admin.password);
          await page.click("button[type=submit]");
          await page.getByLabel(tr("twoFactor.codeLabel")).fill(await nextCode());
          await page.getByRole("button", { name: tr("twoFactor.verify") }).click();
          await page.waitForURL(`${app.url}/${lang}/admin`, { timeout: WAIT });
          // The overview loaded, so leaving it aborts no request of its own.
          await shellReady(page, WAIT);
          await page.waitForLoadState("networkidle", { timeout: WAIT });

          await page.getByRole("link", { name: tr("twoFactor.link") }).click();
          await page.waitForURL(`${app.url}/${lang}/admin/two-factor`, { timeout: WAIT });
          assert.equal(await page.getAttribute("html", "dir"), lang === "he" ? "rtl" : "ltr");
          const form = page.locator("form.two-factor-manage");
          await form.getByRole("heading", { name: tr("twoFactor.manageTitle") }).waitFor({ timeout: WAIT });
          await assertAxeClean(page, `${lang}: managing two-factor`);
          const code = form.getByLabel(tr("twoFactor.codeLabel"));

          // A code of an hour ahead is refused, in the page's words.
          await code.fill(totpCode(secret, 3600_000));
          await form.getByRole("button", { name: tr("twoFactor.newCodes") }).click();
          await form.getByRole("alert").getByText(tr("twoFactor.wrongCurrentCode")).waitFor({
            timeout: WAIT,
          });
          await assertAxeClean(page, `${lang}: a wrong code`);

          // The current code: 10 new recovery codes, shown once.
          await code.fill(await nextCode());
          await form.getByRole("button", { name: tr("twoFactor.newCodes") }).click();
          await page.getByRole("heading", { name: tr("twoFactor.codesTitle") }).waitFor({ timeout: WAIT });
          const codes = (await page.locator(".recovery-codes li").allInnerTexts()).map((c) => c.trim());
          assert.equal(codes.length, 10);
          assert.equal((await app.store.twoFactor.get(registered.body.id))!.recoveryHashes.length, 10);
          assert.equal(await form.count(), 0, "the codes replace the form until the page is left");
          await assertAxeClean(page, `${lang}: the new recovery codes`);

          // Required for everyone (by the owner, the first registered): no way to turn it off.
          await app.store.twoFactor.setRequired(true, new Date().toISOString());
          await page.reload();
          await form.getByText(tr("twoFactor.cannotTurnOff")).waitFor({ timeout: WAIT });
          assert.equal(await form.getByRole("button", { name: tr("twoFactor.turnOff") }).count(), 0);
          await app.store.twoFactor.setRequired(false, new Date().toISOString());

          // Not required: the next code turns it off.
          await page.reload();
          await form.getByLabel(tr("twoFactor.codeLabel")).fill(await nextCode());
          await form.getByRole("button", { name: tr("twoFactor.turnOff") }).click();
          await page.getByText(tr("twoFactor.statusOff")).waitFor({ timeout: WAIT });
          await page.getByRole("button", { name: tr("twoFactor.start") }).waitFor({ timeout: WAIT });
          assert.equal(await app.store.twoFactor.get(registered.body.id), null);
          const actions = (await app.store.audit.list({ actorId: registered.body.id }, 10)).map((e) =>
            e.action
          );
          assert.deepEqual(actions.slice(0, 2), ["two-factor-disabled", "two-factor-recovery-codes"]);
          await assertAxeClean(page, `${lang}: two-factor turned off`);
          // The refused code's 400 is the one expected failure; a reload aborts the page's own
          // requests still under way (the owner's staff list), which is not a problem of the page.
          assert.deepEqual(
            watched.all().filter((p) =>
              !p.includes("/two-factor/recovery-codes") && !/: net::ERR_ABORTED$/.test(p)
            ),
            [],
          );

          // The password alone signs in again.
          await page.context().clearCookies();
          await page.evaluate(() => localStorage.clear());
          await signInToBackOffice(page, app.url, lang, admin, WAIT);
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
