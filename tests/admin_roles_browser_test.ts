/**
 * Each role's view of the back office in Chromium, in English and Hebrew (issues 16 and 26): the
 * owner, an admin, finance and a viewer sign in to the same data (one paid gift, one registration
 * waiting for approval) and see, section by section, what their role allows, and nothing more:
 *
 * | seen                                   | owner | admin | finance | viewer |
 * |----------------------------------------|-------|-------|---------|--------|
 * | staff and settings links, approvals    |  yes  |       |         |        |
 * | audit log, kiosks, outgoing email      |  yes  |  yes  |         |        |
 * | donors link, the monthly report        |  yes  |  yes  |   yes   |        |
 * | reports link, the cancel reasons       |  yes  |  yes  |   yes   |  yes   |
 * | export, receipts, refund               |  yes  |  yes  |   yes   |        |
 * | donor's full email                     |  yes  |  yes  |   yes   | masked |
 *
 * Which links the navigation holds for each role, and the notice on a section not for it, are
 * `tests/admin_nav_browser_test.ts`; the server refuses the rest anyway (`tests/api_roles_test.ts`).
 * Every view axe clean, right to left in Hebrew, no console error.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { AdminRole } from "@/lib/staff/roles.ts";
import { translator } from "@/lib/core/i18n.ts";
import { maySee, type SectionId } from "@/lib/shared/admin_sections.ts";
import { openSection, signInToBackOffice } from "@/tests/helpers/admin_browser.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api } from "@/tests/helpers/http.ts";
import { createPayment, newDonor, payOnSandboxPage } from "@/tests/helpers/payments.ts";

const WAIT = 15_000;
const PASSWORD = "ledger-and-ink-2026";
const ROLES: readonly AdminRole[] = ["owner", "admin", "finance", "viewer"];
const DONOR_EMAIL = "anna@example.org";

/**
 * What a role sees, read section by section once each has loaded (sections it may not see are
 * not opened: their notice is the navigation test's). Axe runs on each section opened.
 */
async function shown(page: Page, tr: ReturnType<typeof translator>, role: AdminRole, what: string) {
  const count = (selector: string) => page.locator(selector).count();
  const nav = page.getByRole("navigation", { name: tr("adminNav.label") });
  const link = (key: string) => nav.getByRole("link", { name: tr(key), exact: true }).count();
  const button = (name: string) => page.getByRole("button", { name, exact: true }).count();
  const name = "Anna Levi";
  const seen = {
    staff: await link("adminNav.sections.staff"),
    settings: await link("adminNav.sections.settings"),
    approvals: await count(".approvals"),
    audit: await link("adminNav.sections.audit"),
    kiosks: 0,
    outbox: 0,
    donors: await link("adminNav.sections.donors"),
    reports: await link("adminNav.sections.reports"),
    monthlyReport: 0,
    cancelReasons: 0,
    export: 0,
    receipt: 0,
    refund: 0,
    fullEmail: 0,
    maskedEmail: 0,
  };
  await assertAxeClean(page, `${what}: overview`);

  await open(page, "transactions");
  seen.export = await button(tr("transactions.exportCsv"));
  seen.receipt = await count(".tx-receipt-link");
  seen.refund = await page.getByRole("button", { name: tr("refunds.ui.buttonFor", { name }) }).count();
  seen.fullEmail = await page.locator(".tx-table").getByText(DONOR_EMAIL).count();
  seen.maskedEmail = await page.locator(".tx-table").getByText("a***@example.org").count();
  await assertAxeClean(page, `${what}: transactions`);

  await open(page, "reports");
  await page.locator(".cancel-reasons[data-loaded]").waitFor({ timeout: WAIT });
  seen.cancelReasons = await count(".cancel-reasons");
  seen.monthlyReport = await count(".report-view[data-loaded]");
  await assertAxeClean(page, `${what}: reports`);

  if (maySee(role, "kiosks")) {
    await open(page, "kiosks");
    seen.kiosks = await count(".kiosk-devices");
  }
  if (maySee(role, "email")) {
    await open(page, "email");
    await page.locator(".outbox[data-loaded]").waitFor({ timeout: WAIT });
    seen.outbox = await count(".outbox");
    await assertAxeClean(page, `${what}: outgoing email`);
  }
  return seen;
}

const lang = (page: Page) => new URL(page.url()).pathname.split("/")[1];
const open = (page: Page, section: SectionId) =>
  openSection(page, new URL(page.url()).origin, lang(page), section, "", WAIT);

/** What `role` should see: one of each thing it may use, none of the others. */
function expected(role: AdminRole) {
  const owner = role === "owner";
  const manages = owner || role === "admin";
  const finance = role !== "viewer";
  const n = (yes: boolean) => yes ? 1 : 0;
  return {
    staff: n(owner),
    settings: n(owner),
    approvals: n(owner),
    audit: n(manages),
    kiosks: n(manages),
    outbox: n(manages),
    donors: n(finance),
    reports: 1,
    monthlyReport: n(finance),
    cancelReasons: 1,
    export: n(finance),
    receipt: n(finance),
    refund: n(finance),
    fullEmail: n(finance),
    maskedEmail: n(!finance),
  };
}

browserTest(
  "back office in Chromium (en, he): each role sees what it may use, and nothing more",
  async (t) => {
    const app = await startTestApp();
    const browser = await launchBrowser();
    try {
      // One paid gift on the sandbox; the first registration is the owner, the others get their roles.
      const created = await createPayment(app, {
        amount: 100,
        currency: "nis",
        userId: await newDonor(app, "Anna"),
      });
      await payOnSandboxPage(app, created.body.url);
      const staff = ROLES.map((role) => ({ role, email: `${role}@museum.org`, password: PASSWORD }));
      for (const s of staff) {
        const res = await api(app.url, "POST", "/api/auth/admin/register", { name: `${s.role} Staff`, ...s });
        assert.equal(res.status, 201);
      }
      const owner = (await app.store.admins.getByEmail("owner@museum.org"))!;
      assert.equal(owner.role, "owner");
      for (const s of staff.slice(1)) {
        const admin = (await app.store.admins.getByEmail(s.email))!;
        await app.store.admins.setStatus(
          admin.id,
          "approved",
          owner.id,
          new Date().toISOString(),
          "pending",
          {
            role: s.role,
          },
        );
      }
      // Waiting for approval: only the owner sees it.
      const waiting = { name: "Waiting Staff", email: "waiting@museum.org", password: PASSWORD };
      assert.equal((await api(app.url, "POST", "/api/auth/admin/register", waiting)).status, 201);

      for (const lang of ["en", "he"] as const) {
        const tr = translator(lang);
        for (const s of staff) {
          await t.step(`${lang}: ${s.role}`, async () => {
            const context = await browser.newContext({
              locale: lang === "he" ? "he-IL" : "en-US",
              viewport: { width: 1280, height: 900 },
              bypassCSP: true,
            });
            try {
              const page = await context.newPage();
              const watched = await watchPage(page);
              await signInToBackOffice(page, app.url, lang, s, WAIT);
              assert.equal(await page.getAttribute("html", "dir"), lang === "he" ? "rtl" : "ltr");
              assert.deepEqual(
                await shown(page, tr, s.role, `${lang}: ${s.role}`),
                expected(s.role),
                `${lang}: ${s.role}'s view`,
              );
              assert.deepEqual(watched.all(), [], "no console error");
            } finally {
              await context.close();
            }
          });
        }
      }
    } finally {
      await browser.close();
      await app.close();
    }
  },
);
