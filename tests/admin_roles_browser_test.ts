/**
 * Each role's view of the back office in Chromium, in English and Hebrew (issue 16, item 1): the
 * owner, an admin, finance and a viewer sign in to the same data (one paid gift, one registration
 * waiting for approval) and see what their role allows, and nothing more:
 *
 * | seen                        | owner | admin | finance | viewer |
 * |-----------------------------|-------|-------|---------|--------|
 * | staff page link, approvals  |  yes  |       |         |        |
 * | audit log link, kiosks, outbox | yes | yes  |         |        |
 * | reports link                |  yes  |  yes  |   yes   |        |
 * | export, receipts, refund    |  yes  |  yes  |   yes   |        |
 * | donor's full email          |  yes  |  yes  |   yes   | masked |
 *
 * The server refuses the rest anyway (`tests/api_roles_test.ts`); this checks the pages say the
 * same. Every view axe clean, right to left in Hebrew, no console error.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import type { AdminRole } from "@/lib/staff/roles.ts";
import { translator } from "@/lib/core/i18n.ts";
import { signInToBackOffice } from "@/tests/helpers/admin_browser.ts";
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
 * What a role's dashboard shows, read once every section has loaded: the last one, and those
 * `role` should see (sections load one after another, so a missing one is not merely late).
 */
async function shown(page: Page, tr: ReturnType<typeof translator>, role: AdminRole) {
  const want = expected(role);
  const loaded = [".cancel-reasons[data-loaded]"];
  if (want.approvals) loaded.push(".approvals");
  if (want.outbox) loaded.push(".outbox[data-loaded]", ".kiosk-devices");
  for (const selector of loaded) await page.locator(selector).waitFor({ timeout: WAIT });
  const count = (selector: string) => page.locator(selector).count();
  const link = (name: string) => page.getByRole("link", { name, exact: true }).count();
  const button = (name: string) => page.getByRole("button", { name, exact: true }).count();
  const name = "Anna Levi";
  return {
    staff: await link(tr("staffAdmin.navStaff")),
    approvals: await count(".approvals"),
    audit: await link(tr("staffAdmin.navAudit")),
    kiosks: await count(".kiosk-devices"),
    outbox: await count(".outbox"),
    reports: await link(tr("reports.link")),
    export: await button(tr("transactions.exportCsv")),
    receipt: await count(".tx-receipt-link"),
    refund: await page.getByRole("button", { name: tr("refunds.ui.buttonFor", { name }) }).count(),
    fullEmail: await page.locator(".tx-table").getByText(DONOR_EMAIL).count(),
    maskedEmail: await page.locator(".tx-table").getByText("a***@example.org").count(),
  };
}

/** What `role` should see: one of each thing it may use, none of the others. */
function expected(role: AdminRole) {
  const owner = role === "owner";
  const manages = owner || role === "admin";
  const finance = role !== "viewer";
  const n = (yes: boolean) => yes ? 1 : 0;
  return {
    staff: n(owner),
    approvals: n(owner),
    audit: n(manages),
    kiosks: n(manages),
    outbox: n(manages),
    reports: n(finance),
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
              assert.deepEqual(await shown(page, tr, s.role), expected(s.role), `${lang}: ${s.role}'s view`);
              await assertAxeClean(page, `${lang}: ${s.role}'s dashboard`);
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
