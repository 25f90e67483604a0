/**
 * The front desk page in Chromium, in English and Hebrew (issue 28): a staff member with the desk
 * role signs in and lands on the Front desk section (the only one the navigation shows them), opens
 * `/{lang}/desk`, scans a member card (a picture of its QR code given to the page; Chromium on Linux
 * has no BarcodeDetector, so jsqr decodes it) and checks the second cardholder in with a guest;
 * types a member number in grace; searches a lapsed member by name and allows them in anyway, a
 * reason first; an unknown number answers red. Every state axe clean, no console error; the visits
 * are stored once each. Screenshots at 390 and 1280 px when `DESK_SHOTS` names a folder.
 */
import assert from "node:assert/strict";
import QRCode from "qrcode";
import type { Page } from "playwright-core";
import { translator } from "@/lib/core/i18n.ts";
import { memberCardKey, signMemberCardToken } from "@/lib/memberships/mod.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { MEMBERS, seedMembers } from "@/tests/helpers/members_data.ts";

const WAIT = 15_000;
const OWNER = { name: "Dana Levi", email: "dana.owner@museum.org", password: "ledger-and-ink-2026" };
const DESK = { name: "Avi Door", email: "avi.desk@museum.org", password: "tickets-at-the-door-26" };
const SHOTS = Deno.env.get("DESK_SHOTS");
const byName = (first: string) => MEMBERS.find((m) => m.firstName === first)!;
const words = (s: string) => s.replace(/[\u2068\u2069]/g, "").replace(/\s+/g, " ").trim();

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.evaluate(() => new Promise(requestAnimationFrame));
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

browserTest("front desk in Chromium (en, he): scan, number, search, allow anyway", async (t) => {
  const app = await startTestApp();
  const browser = await launchBrowser();
  try {
    const now = new Date();
    await seedMembers(app.store, now);
    const owner = await api(app.url, "POST", "/api/auth/admin/register", OWNER);
    assert.equal(owner.status, 201);
    const desk = await api(app.url, "POST", "/api/auth/admin/register", DESK);
    const approved = await api(
      app.url,
      "POST",
      `/api/auth/admin/${desk.body.id}/approve`,
      { role: "desk" },
      bearer(owner.body.accessToken),
    );
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    const rotem = byName("רותם");
    const token = await signMemberCardToken(await memberCardKey(app.config.appSecret), {
      number: rotem.number,
      levelId: 3,
      validUntil: new Date(now.getTime() + 300 * 86_400_000).toISOString(),
      holder: 1,
      name: "Yael Ben-Dvid",
    }, 30);
    const card = await QRCode.toBuffer(token, { margin: 4, scale: 6 });

    for (const lang of ["en", "he"] as const) {
      await t.step(lang, async () => {
        const tr = translator(lang);
        const context = await browser.newContext({
          locale: lang === "he" ? "he-IL" : "en-US",
          timezoneId: "UTC",
          viewport: { width: 390, height: 844 },
        });
        try {
          const page = await context.newPage();
          const watched = await watchPage(page);
          // The desk role lands on its one section, and the navigation shows it only that.
          await page.goto(`${app.url}/${lang}/login`);
          await page.locator("button[type=submit]:not([disabled])").waitFor({ timeout: WAIT });
          await page.fill("#login-email", DESK.email);
          await page.fill("#login-password", DESK.password);
          await page.click("button[type=submit]");
          await page.waitForURL(`${app.url}/${lang}/admin/desk`, { timeout: WAIT });
          await page.locator(".desk-visits [data-loaded]").first().waitFor({ timeout: WAIT });
          const nav = (await page.locator(".admin-nav a").allInnerTexts()).map(words);
          assert.deepEqual([...new Set(nav.filter(Boolean))], [tr("adminNav.sections.desk")]);
          await assertAxeClean(page, `${lang} the Front desk section`);
          await shoot(page, `${lang}-section`);

          await page.goto(`${app.url}/${lang}/desk`);
          await page.locator(".desk[data-ready]").waitFor({ timeout: WAIT });
          assert.equal(await page.getAttribute("html", "dir"), lang === "he" ? "rtl" : "ltr");
          await assertAxeClean(page, `${lang} desk: find`);
          await shoot(page, `${lang}-find`);

          // Scanning: a picture of the card's QR code.
          await page.setInputFiles(".desk-picture input", {
            name: "card.png",
            mimeType: "image/png",
            buffer: card,
          });
          const answer = page.locator(".desk-answer-active");
          await answer.waitFor({ timeout: WAIT });
          assert.equal(words(await page.innerText(".desk-state")), tr("frontDesk.states.active"));
          assert.ok(
            await page.locator(".desk-holders input[value='1']").isChecked(),
            "the scanned cardholder",
          );
          await assertAxeClean(page, `${lang} desk: valid`);
          await shoot(page, `${lang}-valid`);
          await page.fill("#desk-guests", "1");
          await page.click(".desk-check-in");
          await page.locator(".desk-answer-done").waitFor({ timeout: WAIT });
          assert.equal(
            words(await page.innerText(".desk-answer-done .desk-state")),
            words(tr("frontDesk.checkedIn", { name: "\u2068Yael Ben-Dvid\u2069", count: 1 })),
          );
          await assertAxeClean(page, `${lang} desk: checked in`);
          await shoot(page, `${lang}-done`);
          await page.click(".desk-next");

          // A number in grace: amber, remind to renew.
          await page.fill("#desk-number", byName("Dana").number);
          await page.click(".desk-find button[type=submit] >> nth=0");
          await page.locator(".desk-answer-grace").waitFor({ timeout: WAIT });
          assert.equal(words(await page.innerText(".desk-state")), tr("frontDesk.states.grace"));
          await assertAxeClean(page, `${lang} desk: grace`);
          await shoot(page, `${lang}-grace`);
          await page.click(".desk-next");

          // Search by name: a lapsed member, allowed anyway with a reason (none first: refused).
          await page.fill("#desk-search", "Ivanov");
          await page.click("form[role=search] button[type=submit]");
          await page.locator(".desk-answer-lapsed").waitFor({ timeout: WAIT });
          assert.equal(await page.locator(".desk-check-in").count(), 0, "no check-in for a lapsed member");
          await assertAxeClean(page, `${lang} desk: lapsed`);
          await shoot(page, `${lang}-lapsed`);
          await page.click(".desk-allow");
          await page.click(".desk-confirm");
          await page.locator("#desk-reason[aria-invalid=true]").waitFor({ timeout: WAIT });
          assert.equal(words(await page.innerText("#desk-reason-hint")), tr("frontDesk.reasonRequired"));
          await assertAxeClean(page, `${lang} desk: allow anyway, no reason`);
          await shoot(page, `${lang}-reason`);
          await page.fill("#desk-reason", `Renewing today (${lang})`);
          await page.click(".desk-confirm");
          await page.locator(".desk-answer-done").waitFor({ timeout: WAIT });
          await page.click(".desk-next");

          // An unknown number: red.
          await page.fill("#desk-number", "PT4A-8XH2");
          await page.click(".desk-find button[type=submit] >> nth=0");
          await page.locator(".desk-answer-unknown").waitFor({ timeout: WAIT });
          assert.equal(words(await page.innerText(".desk-state")), tr("frontDesk.states.unknown"));
          await assertAxeClean(page, `${lang} desk: unknown`);
          await shoot(page, `${lang}-unknown`);
          assert.deepEqual(watched.all(), [], "no console error");
        } finally {
          await context.close();
        }
      });
    }
    await t.step("the visits are stored, once each", async () => {
      const visits = await app.store.visits.listByTime(
        {
          from: new Date(now.getTime() - 3_600_000).toISOString(),
          to: new Date(Date.now() + 60_000).toISOString(),
        },
        100,
      );
      assert.equal(visits.length, 4);
      assert.equal(visits.filter((v) => v.kind === "override").length, 2);
      assert.deepEqual(
        visits.filter((v) => v.kind === "check-in").map((v) => [v.number, v.cardholder, v.guests]),
        [[rotem.number, "Yael Ben-Dvid", 1], [rotem.number, "Yael Ben-Dvid", 1]],
      );
      const reasons = visits.filter((v) => v.kind === "override").map((v) => v.reason).sort();
      assert.deepEqual(reasons, ["Renewing today (en)", "Renewing today (he)"]);
    });
  } finally {
    await browser.close();
    await app.close();
  }
});
