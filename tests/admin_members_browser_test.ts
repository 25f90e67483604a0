/**
 * The back office's Members section in Chromium, in English and Hebrew (issue 27, item 8): staff
 * see the members list (level names and states in the page's language), filter it by state with
 * the form, search by name, open a member (terms, cardholders, emails sent) and correct a
 * cardholder's name, which the member's page then shows and the audit log records. Each state axe
 * clean, no console error; screenshots at 1280 and 390 px when `MEMBERS_SHOTS` names a folder.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { translator } from "@/lib/core/i18n.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { openSection, signInToBackOffice } from "@/tests/helpers/admin_browser.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api } from "@/tests/helpers/http.ts";
import { seedMembers } from "@/tests/helpers/members_data.ts";

const WAIT = 10_000;
const ADMIN = { name: "Dana Levi", email: "dana.admin@museum.org", password: "ledger-and-ink-2026" };
const SHOTS = Deno.env.get("MEMBERS_SHOTS");

const words = (s: string) => s.replace(/[\u2068\u2069]/g, "").replace(/\s+/g, " ").trim();
const column = async (page: Page, n: number) =>
  (await page.locator(`.members-table tbody tr td:nth-of-type(${n})`).allInnerTexts()).map(words);
const listed = (page: Page) =>
  page.locator(".table-scroll[data-loaded] .members-table tbody tr").first().waitFor({
    timeout: WAIT,
  });

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.evaluate(() => new Promise(requestAnimationFrame));
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

browserTest(
  "back office members in Chromium (en, he): list, filter, a member, a cardholder corrected",
  async (t) => {
    const app = await startTestApp();
    const browser = await launchBrowser();
    try {
      await seedMembers(app.store, new Date());
      assert.equal((await api(app.url, "POST", "/api/auth/admin/register", ADMIN)).status, 201);
      for (const lang of ["en", "he"] as const) {
        await t.step(lang, async () => {
          const tr = translator(lang);
          const context = await browser.newContext({
            locale: lang === "he" ? "he-IL" : "en-US",
            timezoneId: "UTC",
            viewport: { width: 1280, height: 900 },
          });
          try {
            const page = await context.newPage();
            const watched = await watchPage(page);
            await signInToBackOffice(page, app.url, lang, ADMIN, WAIT);

            // The list: every member, by end; the navigation names the section.
            await openSection(page, app.url, lang, "members", "", WAIT);
            await listed(page);
            assert.equal((await column(page, 1)).length, 7);
            assert.ok((await column(page, 2)).includes(lang === "he" ? "רותם בן-דוד" : "Ada Levi"));
            assert.ok((await column(page, 5)).includes(tr("membersAdmin.states.grace")));
            assert.ok((await column(page, 4)).includes(tr("museumDefaults.levels.3.name")));
            await assertAxeClean(page, `${lang}: members list`);
            await shoot(page, `members-list-${lang}`);

            // Filtered by state with the form (a link of this page).
            await page.locator("#members-state").selectOption("lapsed");
            await page.getByRole("button", { name: tr("membersAdmin.apply") }).click();
            await page.waitForURL(/state=lapsed/);
            await listed(page);
            assert.deepEqual(await column(page, 1), ["1000-004N"]);
            // Searched by name: the Hebrew one.
            await openSection(
              page,
              app.url,
              lang,
              "members",
              `?search=${encodeURIComponent("בן-דוד")}`,
              WAIT,
            );
            await listed(page);
            assert.deepEqual(await column(page, 1), ["1000-0038"]);

            // A member: terms, cardholders, emails.
            await page.getByRole("link", { name: tr("membersAdmin.open", { number: "1000-0038" }) }).click();
            await page.waitForURL(/number=1000-0038/);
            await page.locator(".member-view[data-loaded] .member-terms tbody tr").first().waitFor({
              timeout: WAIT,
            });
            assert.equal(await page.locator(".member-terms tbody tr").count(), 2);
            assert.equal(
              await page.locator(".member-emails tbody tr td").first().innerText(),
              tr("membersAdmin.noEmails"),
            );
            await assertAxeClean(page, `${lang}: a member`);
            await shoot(page, `member-${lang}`);

            // Correct the second cardholder's name.
            const fixed = lang === "he" ? "יעל בן-דוד" : "Yael Ben-David";
            const second = page.getByLabel(tr("membersAdmin.cardholderLabel", { n: 2 }), { exact: true });
            await second.fill(fixed);
            await page.getByRole("button", { name: tr("membersAdmin.save") }).click();
            await page.getByRole("status").filter({ hasText: tr("membersAdmin.saved") }).waitFor({
              timeout: WAIT,
            });
            await assertAxeClean(page, `${lang}: cardholders saved`);
            await page.reload();
            await page.locator(".member-view[data-loaded] .member-cardholders").waitFor({ timeout: WAIT });
            assert.equal(await second.inputValue(), fixed);
            const [entry] = await app.store.audit.list({ action: "membership-cardholders-changed" }, 1);
            assert.equal(entry.actorEmail, ADMIN.email);
            assert.deepEqual((entry.changes.after as string[])[1], fixed);

            assert.deepEqual(watched.all(), []);

            // Resend the card (the last step: its email then shows on this member's page): queued once,
            // a second press at once sends nothing more.
            if (lang === "en") return;
            const resend = page.getByRole("button", { name: tr("membersAdmin.resendCard") });
            await resend.click();
            await page.getByRole("status").filter({ hasText: tr("membersAdmin.resendCardQueued") }).waitFor({
              timeout: WAIT,
            });
            await resend.click();
            await page.getByRole("status").filter({ hasText: tr("membersAdmin.resendCardRepeated") }).waitFor(
              {
                timeout: WAIT,
              },
            );
            const [resent] = await app.store.audit.list({ action: "member-card-resent" }, 1);
            assert.equal(resent.actorEmail, ADMIN.email);
            await assertAxeClean(page, `${lang}: card resent`);
            await shoot(page, `member-resent-${lang}`);
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
  },
);
