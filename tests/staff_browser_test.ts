/**
 * The back office's staff pages in Chromium, in English and Hebrew (issues 16 and 26): an owner
 * approves two registrations with the role chosen beside each on the overview, changes one's role
 * and deactivates the other on `/{lang}/admin/staff`, switches a feature flag on
 * `/{lang}/admin/settings`, sees the kiosk devices on `/{lang}/admin/kiosks`, then finds each of
 * those actions in the audit log (`/{lang}/admin/audit`) and narrows it with the action filter,
 * going from section to section by the navigation. Every state axe clean, no console error.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { translator } from "@/lib/core/i18n.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { signInToBackOffice } from "@/tests/helpers/admin_browser.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api } from "@/tests/helpers/http.ts";

const WAIT = 10_000;
const OWNER = { name: "Dana Levi", email: "dana.owner@museum.org", password: "ledger-and-ink-2026" };

const words = (s: string) => s.replace(/[\u2068\u2069]/g, "").replace(/\s+/g, " ").trim();

/** The `data-action` of each row of the audit table. */
async function actions(page: Page): Promise<string[]> {
  await page.locator(".table-scroll[data-loaded]").waitFor({ timeout: WAIT });
  return await page.locator(".audit-table tbody tr[data-action]").evaluateAll((rows) =>
    rows.map((r) => r.getAttribute("data-action") ?? "")
  );
}

browserTest("back office staff, settings and audit log in Chromium (en, he)", async (t) => {
  const app = await startTestApp();
  const browser = await launchBrowser();
  try {
    assert.equal((await api(app.url, "POST", "/api/auth/admin/register", OWNER)).status, 201);
    let round = 0;
    for (const lang of ["en", "he"] as const) {
      round++;
      await t.step(lang, async () => {
        const tr = translator(lang);
        const noa = {
          name: `Noa ${lang}`,
          email: `noa.${lang}@museum.org`,
          password: "a-long-museum-passphrase",
        };
        const eli = {
          name: `Eli ${lang}`,
          email: `eli.${lang}@museum.org`,
          password: "a-long-museum-passphrase",
        };
        for (const who of [noa, eli]) {
          assert.equal((await api(app.url, "POST", "/api/auth/admin/register", who)).status, 201);
        }
        const owner = await api(app.url, "POST", "/api/auth/admin/login", OWNER);
        const device = await api(app.url, "POST", "/api/kiosk-devices", {
          name: `Hall ${lang}`,
          shopNumber: "12",
        }, {
          authorization: `Bearer ${owner.body.accessToken}`,
        });
        assert.equal(device.status, 201);
        const context = await browser.newContext({
          locale: lang === "he" ? "he-IL" : "en-US",
          timezoneId: "UTC",
          viewport: { width: 1280, height: 900 },
        });
        try {
          const page = await context.newPage();
          const watched = await watchPage(page);
          page.on("dialog", (dialog) => dialog.accept());
          await signInToBackOffice(page, app.url, lang, OWNER, WAIT);

          // Approvals: Noa as finance (chosen), Eli as a viewer (the default).
          await page.getByLabel(tr("staffAdmin.approveRole", { name: noa.name })).selectOption("finance");
          await assertAxeClean(page, `${lang}: overview with approvals`);
          for (const who of [noa, eli]) {
            await page.getByRole("button", { name: tr("admin.approveName", { name: who.name }) }).click();
            await page.locator(".approvals-notice", { hasText: who.name }).waitFor({ timeout: WAIT });
          }
          const noaId = (await app.store.admins.getByEmail(noa.email))!.id;
          const eliId = (await app.store.admins.getByEmail(eli.email))!.id;
          assert.equal((await app.store.admins.get(noaId))!.role, "finance");
          assert.equal((await app.store.admins.get(eliId))!.role, "viewer");

          // The staff page: Noa becomes an admin, Eli is deactivated.
          const nav = page.getByRole("navigation", { name: tr("adminNav.label") });
          await nav.getByRole("link", { name: tr("adminNav.sections.staff") }).click();
          await page.waitForURL(`${app.url}/${lang}/admin/staff`, { timeout: WAIT });
          await page.locator("section[data-loaded][aria-labelledby=staff-title]").waitFor({ timeout: WAIT });
          assert.equal(await page.locator("html").getAttribute("dir"), lang === "he" ? "rtl" : "ltr");
          await assertAxeClean(page, `${lang}: staff page`);
          await page.getByLabel(tr("staffAdmin.roleFor", { name: noa.name })).selectOption("admin");
          await page.getByRole("button", { name: tr("staffAdmin.saveRoleFor", { name: noa.name }) }).click();
          const changed = tr("staffAdmin.roleChanged", {
            name: noa.name,
            role: tr("staffAdmin.roles.admin"),
          });
          await page.locator(".staff-notice", { hasText: words(changed) }).waitFor({ timeout: WAIT });
          await page.getByRole("button", { name: tr("staffAdmin.deactivateFor", { name: eli.name }) })
            .click();
          await page.locator(".staff-notice", {
            hasText: tr("staffAdmin.deactivatedNotice", { name: eli.name }),
          })
            .waitFor({ timeout: WAIT });
          // The notice comes with the answer; the row once the list has been read again.
          const eliState = page.locator(`tr[data-email="${eli.email}"] td`).nth(2);
          await eliState.filter({ hasText: tr("staffAdmin.deactivated") }).waitFor({ timeout: WAIT });
          assert.equal(
            words(await eliState.innerText()),
            tr("staffAdmin.deactivated"),
          );
          assert.equal((await app.store.admins.get(noaId))!.role, "admin");
          assert.equal((await app.store.admins.get(eliId))!.status, "deactivated");
          // Eli's session is over: the password no longer signs in.
          assert.equal((await api(app.url, "POST", "/api/auth/admin/login", eli)).status, 401);

          // The settings: a flag, monthly gifts off, then on again; the public flags follow.
          await nav.getByRole("link", { name: tr("adminNav.sections.settings") }).click();
          await page.waitForURL(`${app.url}/${lang}/admin/settings`, { timeout: WAIT });
          await page.locator("section[data-loaded][aria-labelledby=flags-title]").waitFor({ timeout: WAIT });
          const monthly = page.locator(".flag-list li", { hasText: tr("staffAdmin.flags.MONTHLY_PAYMENT") });
          await monthly.getByRole("button", { name: tr("staffAdmin.turnOff") }).click();
          await monthly.getByRole("button", { name: tr("staffAdmin.turnOn") }).waitFor({ timeout: WAIT });
          assert.deepEqual((await api(app.url, "GET", "/api/feature-flags")).body[0], {
            flag: "MONTHLY_PAYMENT",
            enabled: false,
          });
          await assertAxeClean(page, `${lang}: settings after changes`);
          await monthly.getByRole("button", { name: tr("staffAdmin.turnOn") }).click();
          await monthly.getByRole("button", { name: tr("staffAdmin.turnOff") }).waitFor({ timeout: WAIT });

          // The kiosk devices: the one created for this language, not yet paired.
          await nav.getByRole("link", { name: tr("adminNav.sections.kiosks") }).click();
          await page.waitForURL(`${app.url}/${lang}/admin/kiosks`, { timeout: WAIT });
          const hall = page.locator(".kiosk-devices tbody tr", { hasText: `Hall ${lang}` });
          await hall.waitFor({ timeout: WAIT });
          assert.ok((await hall.innerText()).includes(tr("kiosk.notPaired")), await hall.innerText());

          // The audit log: every action above, newest first; then only the role changes.
          await nav.getByRole("link", { name: tr("adminNav.sections.audit") }).click();
          await page.waitForURL(`${app.url}/${lang}/admin/audit`, { timeout: WAIT });
          const all = await actions(page);
          assert.deepEqual(all.slice(0, 8), [
            "flag-changed",
            "flag-changed",
            "sign-in-failed", // Eli's password, refused after the deactivation
            "admin-deactivated",
            "role-changed",
            "admin-approved",
            "admin-approved",
            "sign-in",
          ]);
          const names = await page.locator(".audit-table tbody tr td:nth-of-type(2)").allInnerTexts();
          assert.equal(words(names[0]), tr("staffAdmin.actions.flag-changed"));
          await assertAxeClean(page, `${lang}: audit log`);

          await page.getByLabel(tr("staffAdmin.filterAction")).selectOption("role-changed");
          await page.getByLabel(tr("staffAdmin.filterWho")).selectOption(
            (await app.store.admins.getByEmail(OWNER.email))!.id,
          );
          await page.getByRole("button", { name: tr("staffAdmin.filter") }).click();
          await page.waitForURL(/\/admin\/audit\?actor=.+&action=role-changed/, { timeout: WAIT });
          assert.deepEqual(await actions(page), Array(round).fill("role-changed"));
          assert.equal(await page.getByLabel(tr("staffAdmin.filterAction")).inputValue(), "role-changed");
          await assertAxeClean(page, `${lang}: audit log filtered`);
          assert.deepEqual(watched.all(), []);
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
