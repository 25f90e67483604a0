/**
 * Two-factor sign-in for the staff in Chromium, in English and Hebrew (issue 16): from the back
 * office's header to the two-factor page, set-up with the QR code (the key read from the page, the
 * code computed here with `otpauth` as a phone's app would), the recovery codes shown once, sign
 * out, then sign in again: the password, the code step (a wrong code refused in words), the code,
 * the back office; then an owner resets another admin's two-factor from the same page and requires
 * it for everyone, and that admin's next sign-in leads to its set-up (the back office too). Every
 * state axe clean, no page error.
 */
import assert from "node:assert/strict";
import * as OTPAuth from "otpauth";
import { translator } from "@/lib/core/i18n.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { shellReady, signInToBackOffice } from "@/tests/helpers/admin_browser.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api } from "@/tests/helpers/http.ts";

const WAIT = 10_000;
const PASSWORD = "ledger-and-ink-2026";

/** The code an authenticator app with `secret` shows `offsetSeconds` from now. */
const codeAt = (secret: string, offsetSeconds = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + offsetSeconds * 1000,
  });

browserTest(
  "two-factor sign-in in Chromium (en, he): set up with the QR code, sign in with a code",
  async (t) => {
    const app = await startTestApp({ env: { ADMIN_REGISTRATION: "open" } });
    const browser = await launchBrowser();
    const admins = {
      en: { name: "Dana en", email: "dana.en@museum.org", password: PASSWORD },
      he: { name: "Dana he", email: "dana.he@museum.org", password: PASSWORD },
    };
    try {
      // The first to register is the owner (English); the Hebrew admin enrols first, for the owner to reset.
      const ids: Record<string, string> = {};
      for (const lang of ["en", "he"] as const) {
        const res = await api(app.url, "POST", "/api/auth/admin/register", admins[lang]);
        assert.equal(res.status, 201);
        ids[lang] = res.body.id;
      }
      for (const lang of ["he", "en"] as const) {
        await t.step(lang, async () => {
          const tr = translator(lang);
          const admin = admins[lang];
          const context = await browser.newContext({ locale: lang === "he" ? "he-IL" : "en-US" });
          try {
            const page = await context.newPage();
            const watched = await watchPage(page);
            await signInToBackOffice(page, app.url, lang, admin, WAIT);

            // From the header to the two-factor page: off for now.
            await page.getByRole("link", { name: tr("twoFactor.link") }).click();
            await page.waitForURL(`${app.url}/${lang}/admin/two-factor`, { timeout: WAIT });
            assert.equal(await page.getAttribute("html", "dir"), lang === "he" ? "rtl" : "ltr");
            await page.getByText(tr("twoFactor.statusOff")).waitFor({ timeout: WAIT });
            await assertAxeClean(page, `${lang}: two-factor off`);

            // Set-up: the QR code and the key; a first code from the "app" confirms it.
            await page.getByRole("button", { name: tr("twoFactor.start") }).click();
            const qr = page.getByRole("img", { name: tr("twoFactor.qrAlt") });
            await qr.waitFor({ timeout: WAIT });
            assert.match(await qr.getAttribute("src") ?? "", /^data:image\/svg\+xml/);
            const secret = (await page.locator(".two-factor-secret").innerText()).trim();
            assert.match(secret, /^[A-Z2-7]{32}$/);
            await assertAxeClean(page, `${lang}: the QR code`);
            await page.getByLabel(tr("twoFactor.codeLabel")).fill(codeAt(secret));
            await page.getByRole("button", { name: tr("twoFactor.confirm") }).click();
            await page.getByRole("heading", { name: tr("twoFactor.codesTitle") }).waitFor({ timeout: WAIT });
            const codes = await page.locator(".recovery-codes li").allInnerTexts();
            assert.equal(codes.length, 10);
            for (const c of codes) assert.match(c.trim(), /^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
            await assertAxeClean(page, `${lang}: the recovery codes`);
            const [entry] = await app.store.audit.list(
              { action: "two-factor-enrolled", actorId: ids[lang] },
              1,
            );
            assert.equal(entry.actorEmail, admin.email);

            // Sign out, and in again: the password step, then the code step.
            await page.getByRole("link", { name: tr("twoFactor.continue") }).click();
            await page.waitForURL(`${app.url}/${lang}/admin`, { timeout: WAIT });
            await page.getByRole("button", { name: tr("admin.logout") }).click();
            await page.waitForURL(`${app.url}/${lang}/login`, { timeout: WAIT });
            await page.locator("button[type=submit]:not([disabled])").waitFor({ timeout: WAIT });
            await page.fill("#login-email", admin.email);
            await page.fill("#login-password", admin.password);
            await page.click("button[type=submit]");
            await page.getByRole("heading", { name: tr("twoFactor.stepTitle") }).waitFor({ timeout: WAIT });
            assert.equal(page.url(), `${app.url}/${lang}/login`, "no session yet");
            assert.equal(await page.evaluate(() => localStorage.getItem("accessToken")), null);
            await assertAxeClean(page, `${lang}: the code step`);

            const code = page.getByLabel(tr("twoFactor.codeLabel"));
            await code.fill(codeAt(secret, 3600));
            await page.getByRole("button", { name: tr("twoFactor.verify") }).click();
            await page.getByRole("alert").getByText(tr("twoFactor.wrongCode")).waitFor({ timeout: WAIT });
            await assertAxeClean(page, `${lang}: a wrong code`);
            // The code that confirmed the set-up is spent: the next one (the app's, 30 s on) signs in.
            await code.fill(codeAt(secret, 30));
            await page.getByRole("button", { name: tr("twoFactor.verify") }).click();
            await page.waitForURL(`${app.url}/${lang}/admin`, { timeout: WAIT });
            await shellReady(page, WAIT);
            await page.waitForLoadState("networkidle", { timeout: WAIT });

            if (lang === "en") {
              // The owner resets the Hebrew admin's two-factor (a lost phone), from the same page.
              await page.getByRole("link", { name: tr("twoFactor.link") }).click();
              await page.getByRole("heading", { name: tr("twoFactor.resetTitle") }).waitFor({
                timeout: WAIT,
              });
              await page.getByLabel(tr("twoFactor.resetLabel"), { exact: true }).selectOption(ids.he);
              await page.getByRole("button", { name: tr("twoFactor.resetButton") }).click();
              const done = tr("twoFactor.resetDone", { email: admins.he.email });
              await page.getByText(done).waitFor({ timeout: WAIT });
              await assertAxeClean(page, `${lang}: a reset`);
              assert.equal(await app.store.twoFactor.get(ids.he), null);
              const [reset] = await app.store.audit.list({ action: "two-factor-reset" }, 1);
              assert.deepEqual([reset.actorId, reset.target], [ids.en, ids.he]);
              await page.getByRole("button", { name: tr("twoFactor.resetButton") }).click();
              const none = tr("twoFactor.resetNone", { email: admins.he.email });
              await page.getByText(none).waitFor({ timeout: WAIT });

              // The owner requires two-factor for everyone: the Hebrew admin, who has none now, is led
              // to set it up at the next sign-in, and the back office sends them back there.
              await page.getByRole("button", { name: tr("twoFactor.require") }).click();
              await page.getByText(tr("twoFactor.requiredYes")).waitFor({ timeout: WAIT });
              const heContext = await browser.newContext({ locale: "he-IL" });
              try {
                const he = await heContext.newPage();
                const heT = translator("he");
                await he.goto(`${app.url}/he/login`);
                await he.locator("button[type=submit]:not([disabled])").waitFor({ timeout: WAIT });
                await he.fill("#login-email", admins.he.email);
                await he.fill("#login-password", admins.he.password);
                await he.click("button[type=submit]");
                await he.waitForURL(`${app.url}/he/admin/two-factor`, { timeout: WAIT });
                await he.getByText(heT("twoFactor.requiredNotice")).waitFor({ timeout: WAIT });
                await he.getByRole("button", { name: heT("twoFactor.start") }).waitFor({ timeout: WAIT });
                assert.equal(await he.getByRole("link", { name: heT("twoFactor.back") }).count(), 0);
                await assertAxeClean(he, "he: enrolment required");
                await he.goto(`${app.url}/he/admin`);
                await he.waitForURL(`${app.url}/he/admin/two-factor`, { timeout: WAIT });
              } finally {
                await heContext.close();
              }
            }
            assert.deepEqual(watched.problems.pageErrors, []);
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
