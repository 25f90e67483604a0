/**
 * Kiosks only from kiosks (issue 13) in Chromium, in English and Hebrew: an approved admin creates
 * a kiosk device in the back office and sees its pairing code and link; the kiosk (another browser
 * context), before pairing, says so as its page opens, to staff, with no form nor test terminal
 * buttons; it opens the link, pairs, lands on its shop's kiosk page (the form, the test terminals)
 * and takes a donation that a person approves on the sandbox terminal; the back office then lists
 * it as paired with its last use; revoked while its page is open, its next sale is refused with
 * the pairing page's link, announced once (and logged), and the page says so once opened again.
 * axe finds nothing on the back office's kiosk section, the unpaired kiosk page, the pairing page,
 * the refused sale and the refusal page.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { translator } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api } from "@/tests/helpers/http.ts";

const WAIT = 10_000;
const SHOP = "12";
const ADMIN = { name: "Ana", email: "ana.admin@museum.org", password: "ledger-and-ink-kiosk-2026" };
const DONOR = { firstName: "Dana", lastName: "Levi", email: "dana@example.org", country: "Israel" };

function newContext(browser: Browser, lang: Lang): Promise<BrowserContext> {
  return browser.newContext({
    locale: lang === "he" ? "he-IL" : "en-US",
    timezoneId: "UTC",
    viewport: { width: 1280, height: 900 },
    // axe is injected into the pages.
    bypassCSP: true,
  });
}

async function signIn(page: Page, app: TestApp, lang: Lang): Promise<void> {
  await page.goto(`${app.url}/${lang}/login`);
  await page.locator("button[type=submit]:not([disabled])").waitFor();
  await page.fill("#login-email", ADMIN.email);
  await page.fill("#login-password", ADMIN.password);
  await page.click("button[type=submit]");
  await page.waitForURL(`${app.url}/${lang}/admin`);
  // The kiosk devices are a section of their own (issue 26); the overview's requests answered first.
  await page.waitForLoadState("networkidle");
  await page.goto(`${app.url}/${lang}/admin/kiosks`);
}

/** Chooses tier 2 and fills the donor on the enhanced kiosk page, then donates. */
async function donate(page: Page) {
  await page.waitForSelector('form.donation-form[data-enhanced="true"]');
  await page.click('label.tier-card:has(input[value="tier-2"])');
  for (const [name, value] of Object.entries(DONOR)) await page.fill(`#donor-${name}`, value);
  await page.click(".donate-button");
}

browserTest("kiosk pairing in Chromium: back office, pairing link, a sale, revocation, axe", async (t) => {
  let browser: Browser | undefined;
  const apps: TestApp[] = [];
  try {
    browser = await launchBrowser();
    for (const lang of ["en", "he"] as const) {
      const tr = translator(lang);
      await t.step(
        `${lang}: create in the back office, pair by link, pay at the terminal, revoke`,
        async () => {
          const app = await startTestApp({
            env: { SANDBOX_TERMINAL_AUTO: "manual", FEATURE_TEST_TERMINAL_PAYMENT: "1" },
          });
          apps.push(app);
          const registered = await api(app.url, "POST", "/api/auth/admin/register", ADMIN);
          assert.equal(registered.body.status, "approved");

          const office = await newContext(browser!, lang);
          const kiosk = await newContext(browser!, lang);
          office.setDefaultTimeout(WAIT);
          kiosk.setDefaultTimeout(WAIT);
          try {
            // The back office: create a device, see its code and link once.
            const admin = await office.newPage();
            const officeProblems = await watchPage(admin);
            await signIn(admin, app, lang);
            const section = admin.locator(".kiosk-devices");
            await section.getByText(tr("kiosk.none")).waitFor();
            await assertAxeClean(admin, `/${lang}/admin/kiosks, empty`, ".kiosk-devices");
            await section.getByLabel(tr("kiosk.name")).fill("Entrance hall");
            await section.getByLabel(tr("kiosk.shop")).fill(SHOP);
            await section.getByRole("button", { name: tr("kiosk.create") }).click();
            await section.locator(".kiosk-pairing").waitFor();
            assert.equal(
              await section.locator('[role="status"]').innerText(),
              tr("kiosk.createdNotice", { name: "Entrance hall" }),
            );
            const code = await section.locator(".kiosk-code code").innerText();
            assert.match(code, /^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
            const link = await section.locator("a.kiosk-link").getAttribute("href");
            assert.equal(link, `${app.url}/${lang}/kiosk-pair?code=${code}`);
            const row = section.locator("tbody tr", { hasText: "Entrance hall" });
            // The list is fetched again after the pairing box shows: wait for the new row.
            await row.waitFor();
            assert.deepEqual((await row.locator("th, td").allInnerTexts()).slice(0, 5), [
              "Entrance hall",
              SHOP,
              `sim-${SHOP}`,
              tr("kiosk.notPaired"),
              tr("kiosk.never"),
            ]);
            await row.getByRole("button", { name: tr("kiosk.repairName", { name: "Entrance hall" }) })
              .waitFor();
            await assertAxeClean(
              admin,
              `/${lang}/admin/kiosks, with a pairing code`,
              ".kiosk-devices",
            );

            // The kiosk, not paired yet: its page says so as it opens, to staff, and offers no form.
            const page = await kiosk.newPage();
            const kioskProblems = await watchPage(page);
            const kioskPage = `${app.url}/${lang}/terminal-payment/${SHOP}`;
            await page.goto(kioskPage);
            const notice = page.locator(".kiosk-refusal");
            assert.equal(await notice.locator("h2").innerText(), tr("kiosk.refusedTitle"));
            assert.equal(await notice.locator(".form-alert").innerText(), tr("kiosk.refused.not-paired"));
            assert.equal(
              await notice.getByRole("link", { name: tr("kiosk.pairLink") }).getAttribute("href"),
              `/${lang}/kiosk-pair`,
            );
            assert.equal(
              await page.locator("form.donation-form, #donor-firstName, button[name=testTerminal]").count(),
              0,
              "no form, no test terminal buttons",
            );
            await assertAxeClean(page, `/${lang}/terminal-payment/${SHOP} not paired`);

            // The pairing link shows the code; the button pairs and goes to the kiosk page.
            await page.goto(link!);
            assert.equal(await page.locator("html").getAttribute("dir"), lang === "he" ? "rtl" : "ltr");
            assert.equal(await page.inputValue("#kiosk-code"), code);
            await assertAxeClean(page, `/${lang}/kiosk-pair`);
            await page.getByRole("button", { name: tr("kiosk.pairButton") }).click();
            await page.waitForURL(kioskPage);
            const cookie = (await kiosk.cookies(app.url)).find((c) => c.name === "kiosk_device");
            assert.ok(cookie?.httpOnly && cookie.sameSite === "Strict", JSON.stringify(cookie));
            // Paired: the form, and the test terminals (the flag is on), no notice.
            await page.locator("button[name=testTerminal]").first().waitFor();
            assert.equal(await page.locator(".kiosk-refusal").count(), 0);

            // A donation, approved by a person on the sandbox terminal.
            await donate(page);
            const terminal = await office.newPage();
            let tapped = false;
            for (let i = 0; i < 50 && !tapped; i++) {
              await terminal.goto(`${app.url}/sandbox/terminal/sim-${SHOP}`);
              const approve = terminal.locator('button[value="approve"]');
              if (await approve.count() > 0) {
                await approve.first().click();
                tapped = true;
              } else await new Promise((r) => setTimeout(r, 100));
            }
            assert.ok(tapped, "the sale reached the terminal");
            await page.waitForURL(new RegExp(`/${lang}/terminal-success/${SHOP}\\?`));
            await terminal.close();

            // The back office lists it as paired, used just now; revoking it ends its sales, even on a
            // kiosk page opened before.
            await page.goto(kioskPage);
            await admin.reload();
            const paired = admin.locator(".kiosk-devices tbody tr", { hasText: "Entrance hall" });
            await paired.getByText(tr("kiosk.paired"), { exact: true }).waitFor();
            assert.notEqual(await paired.locator("td").nth(3).innerText(), tr("kiosk.never"));
            admin.once("dialog", (dialog) => dialog.accept());
            await paired.getByRole("button", { name: tr("kiosk.revokeName", { name: "Entrance hall" }) })
              .click();
            await paired.getByText(tr("kiosk.revoked"), { exact: true }).waitFor();
            assert.equal(
              await admin.locator(".kiosk-devices [role=status]").innerText(),
              tr("kiosk.revokedNotice", { name: "Entrance hall" }),
            );

            await donate(page);
            const alert = page.locator('.payment-steps .form-alert[role="alert"]');
            await alert.getByText(tr("kiosk.refused.revoked")).waitFor();
            assert.equal(
              await alert.innerText(),
              `${tr("payment.errorPrefix")}${tr("kiosk.refused.revoked")} ${tr("kiosk.pairHint")} ${
                tr("kiosk.pairLink")
              }`,
            );
            assert.equal(
              await alert.getByRole("link", { name: tr("kiosk.pairLink") }).getAttribute("href"),
              `/${lang}/kiosk-pair`,
            );
            // Announced once, by the alert: the polite live region (field problems) says nothing.
            assert.equal((await page.textContent('.payment-steps [aria-live="polite"]'))?.trim(), "");
            await assertAxeClean(page, `/${lang}/terminal-payment/${SHOP} sale refused`);
            assert.ok(
              app.logs.some((l) => l.msg === "terminal sale refused" && l.reason === "revoked"),
              "the refused sale is logged",
            );
            // Opened again, the page says it at once.
            await page.reload();
            assert.equal(
              await page.locator(".kiosk-refusal .form-alert").innerText(),
              tr("kiosk.refused.revoked"),
            );

            // The no-JavaScript refusal page (a form post without a device), audited as served.
            const refused = await fetch(`${app.url}/${lang}/terminal-payment/${SHOP}`, {
              method: "POST",
              headers: { origin: app.url },
              body: new URLSearchParams({ choice: "tier-1", ...DONOR }),
            });
            assert.equal(refused.status, 403);
            const html = await refused.text();
            const preview = await kiosk.newPage();
            await preview.route(
              `${app.url}/${lang}/refusal-preview`,
              (route) => route.fulfill({ status: 200, contentType: "text/html", body: html }),
            );
            await preview.goto(`${app.url}/${lang}/refusal-preview`);
            await preview.getByText(tr("kiosk.refusedTitle")).waitFor();
            await assertAxeClean(preview, `/${lang}/terminal-payment/${SHOP} refusal`);

            assert.deepEqual(
              officeProblems.all(),
              [],
              "no console errors in the back office",
            );
            // The refused sales answered 403 on purpose; nothing else went wrong.
            assert.deepEqual(
              kioskProblems.all().filter((p) => !/403/.test(p)),
              [],
              "no other problems on the kiosk",
            );
          } finally {
            await office.close();
            await kiosk.close();
          }
        },
      );
    }
  } finally {
    await browser?.close();
    for (const app of apps) await app.close();
  }
});
