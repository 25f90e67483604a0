/**
 * Every back-office page fits a 1280 px laptop and a 390 px phone, in English and Hebrew (issue 26):
 * with a full back office (`fillBackOffice`: 200 transactions, long names, addresses and provider
 * messages, every kind of row), no element is wider than its container or the window and nothing
 * scrolls sideways (`tests/helpers/fit.ts`), a table shown as cards labels every value, and each page
 * is axe clean at both widths.
 *
 * {@link BACK_OFFICE_PAGES} lists the pages, each with what shows that its data is on screen.
 */
import assert from "node:assert/strict";
import { ADMIN_SECTIONS } from "@/lib/shared/admin_sections.ts";
import { signInToBackOffice } from "@/tests/helpers/admin_browser.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { runAxe } from "@/tests/helpers/axe.ts";
import { fillBackOffice, LONG, OWNER } from "@/tests/helpers/back_office_data.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { overflows, unlabelledCards } from "@/tests/helpers/fit.ts";

const WAIT = 15_000;
/** A laptop and a phone. */
const WIDTHS = [{ width: 1280, height: 900 }, { width: 390, height: 844 }];

/**
 * A back-office page: its path under `/{lang}/`, the selectors that show its data has loaded, and
 * what to click open first (a disclosure's table).
 */
interface BackOfficePage {
  path: string;
  ready: string[];
  open?: { click: string; shows: string }[];
}

/** Every back-office page: each section of `lib/shared/admin_sections.ts`, and one's own two-factor. */
export const BACK_OFFICE_PAGES: BackOfficePage[] = [
  { path: "admin", ready: [".admin-shell[data-ready]", ".overview[data-loaded]"] },
  {
    path: "admin/transactions",
    ready: [".daily-totals[data-settled] .chart-table", ".history[data-loaded]"],
    open: [{ click: ".chart-table summary", shows: ".chart-table[open] table" }],
  },
  {
    path: `admin/donors?email=${encodeURIComponent(LONG.email)}`,
    ready: [".donor-view[data-loaded] .donor-gifts"],
  },
  { path: "admin/members", ready: [".table-scroll[data-loaded] .members-table tbody tr td a"] },
  { path: "admin/members?number=1000-0038", ready: [".member-view[data-loaded] .member-terms tbody tr"] },
  { path: "admin/desk", ready: [".desk-visits [data-loaded] .visits-table tbody tr td"] },
  {
    path: "admin/reports",
    ready: [".report-view[data-loaded] .report-table", ".cancel-reasons[data-loaded]"],
  },
  { path: "admin/kiosks", ready: [".kiosk-table tbody tr th"] },
  { path: "admin/email", ready: [".outbox[data-loaded] .outbox-table tbody tr th"] },
  { path: "admin/staff", ready: ["section[data-loaded] .staff-table tbody tr", ".approvals li"] },
  { path: "admin/audit", ready: [".table-scroll[data-loaded] .audit-table tbody tr"] },
  {
    path: "admin/settings",
    ready: ["section[data-loaded] .flag-list li", ".museum-editor[data-loaded] .level-edit"],
  },
  { path: "admin/two-factor", ready: ["main p[role=status]"] },
];

Deno.test("the fit test opens every section of the back office", () => {
  const paths = BACK_OFFICE_PAGES.map((p) => p.path.split("?")[0]);
  for (const section of ADMIN_SECTIONS) {
    const path = section.path ? `admin/${section.path}` : "admin";
    assert.ok(paths.includes(path), `${section.id}: ${path} is not in BACK_OFFICE_PAGES`);
  }
});

for (const lang of ["en", "he"] as const) {
  browserTest(`back office (${lang}): every page fits 1280 and 390 px, axe clean`, async (t) => {
    const app = await startTestApp();
    const browser = await launchBrowser();
    try {
      await fillBackOffice(app, new Date());
      const context = await browser.newContext({
        locale: lang === "he" ? "he-IL" : "en-US",
        timezoneId: "Asia/Jerusalem",
        viewport: WIDTHS[0],
        bypassCSP: true,
      });
      const page = await context.newPage();
      const watched = await watchPage(page);
      await signInToBackOffice(page, app.url, lang, OWNER, WAIT);
      const failures: string[] = [];
      for (const { path, ready, open = [] } of BACK_OFFICE_PAGES) {
        for (const size of WIDTHS) {
          await t.step(`/${lang}/${path.split("?")[0]} at ${size.width} px`, async () => {
            // Resized away from the page: the transactions section asks for its chart again when its box
            // changes width, and the navigation would cut that call off.
            await page.goto("about:blank");
            await page.setViewportSize(size);
            await page.goto(`${app.url}/${lang}/${path}`);
            for (const selector of ready) await page.locator(selector).first().waitFor({ timeout: WAIT });
            // Every answer in, and a frame to draw it.
            await page.waitForLoadState("networkidle", { timeout: WAIT });
            await page.evaluate(() => new Promise(requestAnimationFrame));
            for (const { click, shows } of open) {
              await page.locator(click).click();
              await page.locator(shows).waitFor({ timeout: WAIT });
            }
            const where = `/${lang}/${path.split("?")[0]} at ${size.width} px`;
            for (const problem of await overflows(page)) failures.push(`${where}: ${problem}`);
            for (const problem of await unlabelledCards(page)) failures.push(`${where}: ${problem}`);
            const audit = await runAxe(page);
            assert.ok(audit.passes > 0, `${where}: axe ran`);
            for (const violation of audit.violations) failures.push(`${where}: axe: ${violation}`);
          });
        }
      }
      assert.deepEqual(failures, []);
      assert.deepEqual(watched.all(), []);
      await context.close();
    } finally {
      await browser.close();
      await app.close();
    }
  });
}
