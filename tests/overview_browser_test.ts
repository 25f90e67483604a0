/**
 * The overview in Chromium (issue 26): an owner sees every card, a viewer the gifts and the monthly
 * charges only; each card is the link the API gave; at 390 and 1280 px, in English and Hebrew (right
 * to left), nothing is wider than its card or the window; axe clean; no console error. A day range
 * opened from a card shows in the history as a chip that removes it.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import type { Overview, PeriodTotals } from "@/lib/shared/overview.ts";
import { hashPassword } from "@/lib/staff/passwords.ts";
import { signInToBackOffice } from "@/tests/helpers/admin_browser.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { overviewScene } from "@/tests/helpers/overview.ts";
import { adminFixture } from "@/tests/storage/fixtures.ts";

const PASSWORD = "cards-on-the-table-2026";
const WAIT = 15_000;
const OWNER_CARDS = [
  "gifts-today",
  "gifts-month",
  "monthlyFailing",
  "refunds",
  "email",
  "approvals",
  "kiosks",
];

browserTest("overview: each role's cards, their links, at 390 and 1280 px in en and he", async (t) => {
  const app = await startTestApp();
  const browser = await launchBrowser();
  try {
    await overviewScene(app.store, app.config.museumTimeZone);
    const owner = { email: "owner@museum.org", password: PASSWORD };
    assert.equal(
      (await api(app.url, "POST", "/api/auth/admin/register", { name: "Olga", ...owner })).status,
      201,
    );
    const viewer = { email: "viewer@museum.org", password: PASSWORD };
    await app.store.admins.create(
      adminFixture({
        ...viewer,
        passwordHash: await hashPassword(PASSWORD),
        status: "approved",
        role: "viewer",
      }),
    );
    // Someone waiting for approval, for the owner's card.
    await app.store.admins.create(adminFixture());

    for (const [role, who] of [["owner", owner], ["viewer", viewer]] as const) {
      for (const lang of ["en", "he"] as const) {
        for (const width of [390, 1280]) {
          await t.step(`${role}, ${lang}, ${width} px`, async () => {
            const context = await browser.newContext({ viewport: { width, height: 900 } });
            const page = await context.newPage();
            const watched = await watchPage(page);
            try {
              await signInToBackOffice(page, app.url, lang, who, WAIT);
              await page.locator(".overview[data-loaded]").waitFor({ timeout: WAIT });
              const token = await page.evaluate(() => localStorage.getItem("accessToken"));
              const answer: Overview =
                (await api(app.url, "GET", `/api/overview?lang=${lang}`, undefined, bearer(token!)))
                  .body;
              const cards = await page.locator(".overview-card").evaluateAll((els) =>
                els.map((el) => ({
                  part: (el as HTMLElement).dataset.part,
                  href: el.querySelector(".overview-main")?.getAttribute("href"),
                }))
              );
              assert.deepEqual(
                cards.map((c) => c.part),
                role === "owner" ? OWNER_CARDS : OWNER_CARDS.slice(0, 3),
              );
              const hrefs = [
                answer.gifts!.today.href,
                answer.gifts!.thisMonth.href,
                answer.monthlyFailing!.href,
                ...(role === "owner"
                  ? [answer.refunds!.href, answer.email!.href, answer.approvals!.href, answer.kiosks!.href]
                  : []),
              ];
              assert.deepEqual(cards.map((c) => c.href), hrefs);
              assert.ok(hrefs.every((href) => href.startsWith(`/${lang}/admin/`)), hrefs.join(" "));
              const fit = await page.evaluate(() => ({
                page: document.documentElement.scrollWidth - innerWidth,
                cards: [...document.querySelectorAll<HTMLElement>(".overview-card")]
                  .filter((el) => el.scrollWidth > el.clientWidth + 1).length,
                dir: document.documentElement.dir,
              }));
              assert.deepEqual(fit, { page: 0, cards: 0, dir: lang === "he" ? "rtl" : "ltr" });
              const tr = translator(lang);
              await page.getByText(tr("overview.monthlyFailing"), { exact: true }).waitFor({ timeout: WAIT });
              await assertAxeClean(page, `overview, ${role}, ${lang}, ${width}`, ".overview");
              assert.deepEqual(watched.all(), []);
            } finally {
              await context.close();
            }
          });
        }
      }
    }

    await t.step("a day range from a card shows as a chip in the history, which removes it", async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await signInToBackOffice(page, app.url, "en", owner, WAIT);
      const today = (await page.evaluate(async () => {
        const res = await fetch("/api/overview?lang=en", {
          headers: { authorization: `Bearer ${localStorage.getItem("accessToken")}` },
        });
        return (await res.json()).gifts.today;
      })) as PeriodTotals;
      // The transactions section, as the card links to it.
      const query = new URL(today.href, app.url).search;
      await page.goto(`${app.url}${today.href}`);
      await page.locator(`.history[data-loaded="${query}"]`).waitFor({ timeout: WAIT });
      const count = today.totals.reduce((n, c) => n + c.count, 0);
      const tr = translator("en");
      await page.getByText(tr("transactions.successCount", { count }), { exact: true }).waitFor({
        timeout: WAIT,
      });
      const chip = page.locator(".filter-chip");
      assert.equal(await chip.count(), 1);
      await chip.getByRole("button").click();
      await page.waitForURL(`${app.url}/en/admin/transactions?type=success`, { timeout: WAIT });
      await page.close();
    });
  } finally {
    await browser.close();
    await app.close();
  }
});
