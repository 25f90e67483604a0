/**
 * The front desk offline in Chromium, in English and Hebrew (issue 28, item 2): a desk signed in and
 * synced once, then the network cut (`context.setOffline`): three member cards scanned (pictures of
 * their QR codes) are checked on the page with the kept public key, three check-ins kept in the
 * browser ("waiting to send (3)"); the network back, the three visits are stored on the server, none
 * twice. Also with the page reloaded while offline (then served by the desk's service worker) before
 * the network returns. The offline states axe clean; the banner and the queue looked at at 390 px
 * (`DESK_SHOTS` names a folder for the screenshots).
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

const WAIT = 20_000;
const OWNER = { name: "Dana Levi", email: "dana.owner@museum.org", password: "ledger-and-ink-2026" };
const DESK = { name: "Avi Door", email: "avi.desk@museum.org", password: "tickets-at-the-door-26" };
const SHOTS = Deno.env.get("DESK_SHOTS");
const words = (s: string) => s.replace(/[\u2068\u2069]/g, "").replace(/\s+/g, " ").trim();

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  await page.evaluate(() => new Promise(requestAnimationFrame));
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** Signs the desk's staff member in, in `lang` (they land on their Front desk section). */
async function signIn(page: Page, appUrl: string, lang: string) {
  await page.goto(`${appUrl}/${lang}/login`);
  await page.locator("button[type=submit]:not([disabled])").waitFor({ timeout: WAIT });
  await page.fill("#login-email", DESK.email);
  await page.fill("#login-password", DESK.password);
  await page.click("button[type=submit]");
  await page.waitForURL(`${appUrl}/${lang}/admin/desk`, { timeout: WAIT });
}

browserTest("front desk offline in Chromium (en, he): three check-ins kept, sent once each", async (t) => {
  const app = await startTestApp();
  const browser = await launchBrowser();
  if (SHOTS) await Deno.mkdir(SHOTS, { recursive: true });
  try {
    const now = new Date();
    await seedMembers(app.store, now);
    const owner = await api(app.url, "POST", "/api/auth/admin/register", OWNER);
    const desk = await api(app.url, "POST", "/api/auth/admin/register", DESK);
    const approved = await api(
      app.url,
      "POST",
      `/api/auth/admin/${desk.body.id}/approve`,
      { role: "desk" },
      bearer(owner.body.accessToken),
    );
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    const key = await memberCardKey(app.config.appSecret);
    const cards = await Promise.all(["Ada", "Noam", "רותם"].map(async (first) => {
      const m = MEMBERS.find((m) => m.firstName === first)!;
      const name = `${m.firstName} ${m.lastName}`;
      const validUntil = new Date(now.getTime() + m.endDays * 86_400_000).toISOString();
      const token = await signMemberCardToken(key, {
        number: m.number,
        levelId: m.levelId,
        validUntil,
        holder: 0,
        name,
      }, 30);
      return { number: m.number, name, png: await QRCode.toBuffer(token, { margin: 4, scale: 6 }) };
    }));
    const listVisits = () =>
      app.store.visits.listByTime(
        {
          from: new Date(now.getTime() - 3_600_000).toISOString(),
          to: new Date(Date.now() + 60_000).toISOString(),
        },
        100,
      );
    const visitCount = async () => (await listVisits()).length;
    let stored = 0;

    for (const lang of ["en", "he"] as const) {
      for (const reload of [false, true]) {
        await t.step(`${lang}${reload ? ", reloaded while offline" : ""}`, async () => {
          const tr = translator(lang);
          const context = await browser.newContext({
            locale: lang === "he" ? "he-IL" : "en-US",
            timezoneId: "UTC",
            viewport: { width: 390, height: 844 },
          });
          try {
            const page = await context.newPage();
            const watched = await watchPage(page);
            await signIn(page, app.url, lang);

            // Online once: the page registers its worker and syncs the card key.
            await page.goto(`${app.url}/${lang}/desk`);
            await page.locator(".desk[data-ready]").waitFor({ timeout: WAIT });
            await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
              timeout: WAIT,
            });
            await page.waitForFunction(() => localStorage.getItem("museum-desk.card-key") !== null, null, {
              timeout: WAIT,
            });
            const synced = words(await page.innerText(".desk-offline-sync"));
            assert.ok(synced.startsWith(words(tr("frontDesk.offline.lastSync", { time: "" }))), synced);
            // The worker serves the desk alone: the back office is not its page.
            assert.equal(
              await page.evaluate(async () =>
                (await navigator.serviceWorker.getRegistration("/en/admin/")) ?? null
              ),
              null,
            );

            await context.setOffline(true);
            await page.locator(".desk-offline-banner").waitFor({ timeout: WAIT });
            await assertAxeClean(page, `${lang} desk offline`);
            await shoot(page, `${lang}-offline-banner${reload ? "-reload" : ""}`);

            for (const [i, card] of cards.entries()) {
              if (reload && i === 2) {
                // The page again, with no network: the worker serves it and its scripts.
                await page.reload();
                await page.locator(".desk[data-ready]").waitFor({ timeout: WAIT });
                await page.locator(".desk-offline-banner").waitFor({ timeout: WAIT });
                assert.equal(
                  words(await page.innerText(".desk-offline-queue")),
                  words(tr("frontDesk.offline.waiting", { count: 2 })),
                );
              }
              await page.setInputFiles(".desk-picture input", {
                name: "card.png",
                mimeType: "image/png",
                buffer: card.png,
              });
              await page.locator(".desk-answer-active, .desk-answer-grace").waitFor({ timeout: WAIT });
              assert.equal(
                words(await page.innerText(".desk-offline-note")),
                words(tr("frontDesk.offline.checkedOffline")),
              );
              assert.ok(words(await page.innerText(".desk-answer")).includes(words(card.name)));
              if (i === 0) {
                await assertAxeClean(page, `${lang} desk offline: a card checked offline`);
                await shoot(page, `${lang}-offline-card${reload ? "-reload" : ""}`);
              }
              await page.click(".desk-check-in");
              await page.locator(".desk-answer-done").waitFor({ timeout: WAIT });
              assert.equal(
                words(await page.innerText(".desk-answer-done .desk-state")),
                words(tr("frontDesk.offline.queued")),
              );
              await page.click(".desk-next");
            }
            assert.equal(
              words(await page.innerText(".desk-offline-queue")),
              words(tr("frontDesk.offline.waiting", { count: 3 })),
            );
            // Searching needs the network, and says so.
            await page.fill("#desk-number", cards[0].number);
            await page.click(".desk-find button[type=submit] >> nth=0");
            await page.getByText(tr("frontDesk.offline.needsNetwork")).waitFor({ timeout: WAIT });
            await assertAxeClean(page, `${lang} desk offline: three waiting`);
            await shoot(page, `${lang}-offline-queue${reload ? "-reload" : ""}`);
            const before = await visitCount();
            assert.equal(before, stored, "nothing reached the server offline");

            await context.setOffline(false);
            await page.locator(".desk-offline-banner").waitFor({ state: "detached", timeout: WAIT });
            await page.locator(".desk-offline-queue:empty").waitFor({ state: "attached", timeout: WAIT });
            stored += 3;
            const visits = await listVisits();
            assert.equal(visits.length, stored, "three visits stored");
            assert.equal(new Set(visits.map((v) => v.id)).size, visits.length, "none twice");
            assert.deepEqual(
              visits.slice(0, 3).map((v) => v.number).sort(),
              cards.map((c) => c.number).sort(),
            );
            // A later flush (the timer, the online event again) sends nothing more.
            await page.evaluate(() => dispatchEvent(new Event("online")));
            await new Promise((r) => setTimeout(r, 500));
            assert.equal(await visitCount(), stored);
            assert.deepEqual(
              watched.all().filter((line) =>
                !/ERR_INTERNET_DISCONNECTED|Failed to fetch|net::ERR/.test(line)
              ),
              [],
            );
          } finally {
            await context.close();
          }
        });
      }
    }
    // A card still signed as valid (printed before its membership lapsed): offline it passes, the
    // accepted risk; sent, the server refuses it, and the desk lists it with the server's reason.
    const boris = MEMBERS.find((m) => m.firstName === "Boris")!;
    const revoked = await QRCode.toBuffer(
      await signMemberCardToken(key, {
        number: boris.number,
        levelId: boris.levelId,
        validUntil: new Date(now.getTime() + 100 * 86_400_000).toISOString(),
        holder: 0,
        name: "Boris Ivanov",
      }, 30),
      { margin: 4, scale: 6 },
    );
    for (const lang of ["en", "he"] as const) {
      await t.step(
        `${lang}: a card lapsed since the last sync is refused when sent, and listed`,
        async () => {
          const tr = translator(lang);
          const context = await browser.newContext({
            locale: lang === "he" ? "he-IL" : "en-US",
            timezoneId: "UTC",
            viewport: { width: 390, height: 844 },
          });
          try {
            const page = await context.newPage();
            await signIn(page, app.url, lang);
            await page.goto(`${app.url}/${lang}/desk`);
            await page.locator(".desk[data-ready]").waitFor({ timeout: WAIT });
            await page.waitForFunction(() => localStorage.getItem("museum-desk.card-key") !== null, null, {
              timeout: WAIT,
            });
            await context.setOffline(true);
            await page.locator(".desk-offline-banner").waitFor({ timeout: WAIT });
            await page.setInputFiles(".desk-picture input", {
              name: "card.png",
              mimeType: "image/png",
              buffer: revoked,
            });
            await page.locator(".desk-answer-active").waitFor({ timeout: WAIT });
            await page.click(".desk-check-in");
            await page.locator(".desk-answer-done").waitFor({ timeout: WAIT });
            await page.click(".desk-next");
            await context.setOffline(false);
            const failed = page.locator(".desk-offline-failed li");
            await failed.waitFor({ timeout: WAIT });
            assert.ok(words(await failed.innerText()).includes("This membership has lapsed"));
            assert.equal(
              words(await page.innerText(".desk-offline-failed h2")),
              words(tr("frontDesk.offline.failedTitle", { count: 1 })),
            );
            assert.equal(await visitCount(), stored, "no visit for the refused card");
            await assertAxeClean(page, `${lang} desk: a refused check-in listed`);
            await shoot(page, `${lang}-refused`);
            await failed.getByRole("button", { name: tr("frontDesk.offline.dismiss") }).click();
            await failed.waitFor({ state: "detached", timeout: WAIT });
          } finally {
            await context.close();
          }
        },
      );
    }
  } finally {
    await browser.close();
    await app.close();
  }
});
