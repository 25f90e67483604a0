/**
 * The back office's navigation in Chromium (issue 26, sections): each role signs in and finds in the
 * navigation exactly the sections `lib/shared/admin_sections.ts` gives it, in that order, the
 * current one marked (`aria-current="page"`); a section not for its role, opened by its address,
 * says so in the page's language with a link to the overview, and asks the server nothing. On a
 * laptop the navigation is a sidebar at the inline start (the right in Hebrew); on a phone a menu
 * that opens and leads to a section without any JavaScript. Axe clean, no console error.
 */
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { translator } from "@/lib/core/i18n.ts";
import { ADMIN_SECTIONS, maySee, sectionHref, sectionsFor } from "@/lib/shared/admin_sections.ts";
import type { AdminRole } from "@/lib/staff/roles.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api } from "@/tests/helpers/http.ts";

const WAIT = 15_000;
const PASSWORD = "ledger-and-ink-2026";
const ROLES: readonly AdminRole[] = ["owner", "admin", "finance", "viewer"];
const staff = (role: AdminRole) => ({
  name: `${role} Staff`,
  email: `${role}@museum.org`,
  password: PASSWORD,
});

/** The owner registers first; the others are approved with their roles. */
async function seedStaff(app: TestApp): Promise<void> {
  for (const role of ROLES) {
    assert.equal((await api(app.url, "POST", "/api/auth/admin/register", staff(role))).status, 201);
  }
  const owner = (await app.store.admins.getByEmail("owner@museum.org"))!;
  for (const role of ROLES.slice(1)) {
    const admin = (await app.store.admins.getByEmail(staff(role).email))!;
    await app.store.admins.setStatus(admin.id, "approved", owner.id, new Date().toISOString(), "pending", {
      role,
    });
  }
}

async function signIn(page: Page, app: TestApp, lang: string, role: AdminRole): Promise<void> {
  await page.goto(`${app.url}/${lang}/login`);
  await page.locator("button[type=submit]:not([disabled])").waitFor({ timeout: WAIT });
  await page.fill("#login-email", staff(role).email);
  await page.fill("#login-password", PASSWORD);
  await page.click("button[type=submit]");
  await page.waitForURL(`${app.url}/${lang}/admin`, { timeout: WAIT });
  await shellReady(page);
}

/** The shell has the server's word on who the admin is. */
const shellReady = (page: Page) => page.locator(".admin-shell[data-ready]").waitFor({ timeout: WAIT });

/** The navigation's visible links: name and address, in order. */
async function navLinks(page: Page, label: string): Promise<[string, string][]> {
  const links = page.getByRole("navigation", { name: label }).getByRole("link");
  const out: [string, string][] = [];
  for (const link of await links.all()) {
    out.push([(await link.innerText()).trim(), (await link.getAttribute("href"))!]);
  }
  return out;
}

/** The visible link marked as the current page. */
const current = (page: Page, label: string) =>
  page.getByRole("navigation", { name: label }).locator("a[aria-current=page]").filter({ visible: true });

async function withBrowser(run: (app: TestApp, browser: Browser) => Promise<void>) {
  const app = await startTestApp();
  const browser = await launchBrowser();
  try {
    await seedStaff(app);
    await run(app, browser);
  } finally {
    await browser.close();
    await app.close();
  }
}

browserTest(
  "back office navigation (en, he): each role its sections, the current marked, the rest refused",
  (t) =>
    withBrowser(async (app, browser) => {
      const runs: [string, AdminRole][] = [...ROLES.map((r) => ["en", r] as [string, AdminRole]), [
        "he",
        "viewer",
      ]];
      for (const [lang, role] of runs) {
        await t.step(`${lang}: ${role}`, async () => {
          const tr = translator(lang as "en");
          const label = tr("adminNav.label");
          const context = await browser.newContext({
            locale: lang === "he" ? "he-IL" : "en-US",
            viewport: { width: 1280, height: 900 },
          });
          try {
            const page = await context.newPage();
            const watched = await watchPage(page);
            await signIn(page, app, lang, role);
            const mine = sectionsFor(role).map((s) => [tr(s.label), sectionHref(lang, s.id as never)]);
            assert.deepEqual(await navLinks(page, label), mine, `${role}: exactly its sections, in order`);
            assert.equal((await current(page, label).innerText()).trim(), tr("adminNav.sections.overview"));
            assert.equal(await current(page, label).count(), 1);
            // The sidebar at the inline start: the left in English, the right in Hebrew.
            const nav = (await page.getByRole("navigation", { name: label }).boundingBox())!;
            const content = (await page.locator(".admin-content").boundingBox())!;
            if (lang === "he") assert.ok(nav.x >= content.x + content.width - 1, "the sidebar on the right");
            else assert.ok(nav.x + nav.width <= content.x + 1, "the sidebar on the left");
            await assertAxeClean(page, `${lang} ${role}: overview`);

            for (const section of ADMIN_SECTIONS) {
              await page.goto(`${app.url}${sectionHref(lang, section.id)}`);
              await shellReady(page);
              if (maySee(role, section.id)) {
                await page.locator(`.admin-section[data-section=${section.id}]`).waitFor({ timeout: WAIT });
                // Its calls answered before the next page (one cut off by the navigation reads as failed).
                await page.waitForLoadState("networkidle", { timeout: WAIT });
                assert.equal(await page.locator(".role-notice").count(), 0, `${role} ${section.id}`);
                assert.equal((await current(page, label).innerText()).trim(), tr(section.label));
              } else {
                const notice = page.locator(".role-notice");
                await notice.waitFor({ timeout: WAIT });
                assert.ok(
                  (await notice.innerText()).includes(
                    tr("adminNav.notForRole", { role: tr(`staffAdmin.roles.${role}`) }),
                  ),
                  await notice.innerText(),
                );
                assert.equal(
                  await page.locator(".admin-section").count(),
                  0,
                  `${role} ${section.id}: no content`,
                );
                // Still its own sections in the navigation; none of them is this page.
                assert.deepEqual(await navLinks(page, label), mine);
                assert.equal(await current(page, label).count(), 0);
                const back = notice.getByRole("link", { name: tr("adminNav.toOverview") });
                assert.equal(await back.getAttribute("href"), `/${lang}/admin`);
              }
            }
            // A refused section, axe clean; its link leads back to the overview.
            const refused = ADMIN_SECTIONS.find((s) => !maySee(role, s.id));
            if (refused) {
              await page.goto(`${app.url}${sectionHref(lang, refused.id)}`);
              await page.locator(".role-notice").waitFor({ timeout: WAIT });
              await assertAxeClean(page, `${lang} ${role}: ${refused.id}, not for this role`);
              await page.locator(".role-notice").getByRole("link").click();
              await page.waitForURL(`${app.url}/${lang}/admin`, { timeout: WAIT });
            }
            // No refusal from the server: a section not for the role asks it nothing.
            assert.deepEqual(watched.all(), []);
          } finally {
            await context.close();
          }
        });
      }
    }),
);

browserTest(
  "back office navigation on a phone (en, he): a menu that works without JavaScript",
  (t) =>
    withBrowser(async (app, browser) => {
      for (const lang of ["en", "he"] as const) {
        await t.step(lang, async () => {
          const tr = translator(lang);
          const label = tr("adminNav.label");
          const phone = { viewport: { width: 390, height: 844 }, locale: lang === "he" ? "he-IL" : "en-US" };
          const context = await browser.newContext(phone);
          const bare = await browser.newContext({ ...phone, javaScriptEnabled: false });
          try {
            const page = await context.newPage();
            const watched = await watchPage(page);
            await signIn(page, app, lang, "owner");
            const nav = page.getByRole("navigation", { name: label });
            const kiosks = nav.getByRole("link", { name: tr("adminNav.sections.kiosks") });
            // Closed: one line naming the current section; the links appear when it opens.
            assert.equal(await kiosks.isVisible(), false);
            const summary = nav.locator("summary");
            assert.ok((await summary.innerText()).includes(tr("adminNav.sections.overview")));
            await summary.click();
            await kiosks.waitFor({ state: "visible", timeout: WAIT });
            assert.equal((await current(page, label).innerText()).trim(), tr("adminNav.sections.overview"));
            await assertAxeClean(page, `${lang} phone: the menu open`);
            await kiosks.click();
            await page.waitForURL(`${app.url}/${lang}/admin/kiosks`, { timeout: WAIT });
            await shellReady(page);
            assert.equal(
              await nav.getByRole("link", { name: tr("adminNav.sections.staff") }).isVisible(),
              false,
            );
            assert.deepEqual(watched.all(), []);

            // The same page without any script: the menu still opens and its links still lead on.
            const html = await page.content();
            const still = await bare.newPage();
            await still.route(
              `${app.url}/${lang}/admin/kiosks`,
              (route) => route.fulfill({ contentType: "text/html; charset=utf-8", body: html }),
            );
            await still.goto(`${app.url}/${lang}/admin/kiosks`);
            const staffLink = still.getByRole("navigation", { name: label })
              .getByRole("link", { name: tr("adminNav.sections.staff") });
            assert.equal(await staffLink.isVisible(), false);
            await still.getByRole("navigation", { name: label }).locator("summary").click();
            await staffLink.waitFor({ state: "visible", timeout: WAIT });
            await staffLink.click();
            await still.waitForURL(`${app.url}/${lang}/admin/staff`, { timeout: WAIT });
          } finally {
            await bare.close();
            await context.close();
          }
        });
      }
    }),
);

browserTest(
  "back office (en): a sign-out in one tab signs out every section open in others",
  (t) =>
    withBrowser(async (app, browser) => {
      await t.step("staff and settings follow a logout on the kiosks page", async () => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        try {
          const tr = translator("en");
          const first = await context.newPage();
          await signIn(first, app, "en", "owner");
          const tabs = [first, await context.newPage(), await context.newPage()];
          for (
            const [page, section] of [[tabs[0], "staff"], [tabs[1], "settings"], [tabs[2], "kiosks"]] as const
          ) {
            await page.goto(`${app.url}${sectionHref("en", section)}`);
            await shellReady(page);
            await page.waitForLoadState("networkidle");
          }
          await tabs[2].getByRole("button", { name: tr("admin.logout") }).click();
          for (const page of tabs) await page.waitForURL(`${app.url}/en/login`, { timeout: WAIT });
        } finally {
          await context.close();
        }
      });
    }),
);
