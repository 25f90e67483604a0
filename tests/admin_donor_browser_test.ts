/**
 * The back office's donor view in Chromium, in English and Hebrew (issue 15): from a transaction
 * row's email address to every gift under that address (both donor records, nobody else's), the
 * lifetime totals per currency, the first and last gift, each monthly gift's state in words
 * (failing, active, paused until, cancelled with the donor's reason, ended); an unknown address
 * asked in the page's form says so. The reports section counts the cancel reasons and the outgoing
 * email section labels the new message kinds (issue 26: each its own section). Every state axe clean, no console error.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { translator } from "@/lib/core/i18n.ts";
import { formatDateTime } from "@/lib/shared/dates.ts";
import { listAmount } from "@/lib/shared/format.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { openSection, signInToBackOffice } from "@/tests/helpers/admin_browser.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { days, DONOR_EMAIL, seedDonorView } from "@/tests/helpers/donor_view.ts";
import { api } from "@/tests/helpers/http.ts";

const WAIT = 10_000;
const ADMIN = { name: "Dana Levi", email: "dana.admin@museum.org", password: "ledger-and-ink-2026" };

/**
 * Text as read on screen, its white space (narrow no-break spaces in times too) as single spaces,
 * without the isolates (FSI, PDI) that keep a value's direction inside a sentence.
 */
const words = (s: string) => s.replace(/[\u2068\u2069]/g, "").replace(/\s+/g, " ").trim();

async function texts(page: Page, selector: string): Promise<string[]> {
  return (await page.locator(selector).allInnerTexts()).map(words);
}

browserTest(
  "back office donor view in Chromium (en, he): from a transaction row; cancel reasons",
  async (t) => {
    const app = await startTestApp();
    const browser = await launchBrowser();
    try {
      const data = await seedDonorView(app.store);
      assert.equal((await api(app.url, "POST", "/api/auth/admin/register", ADMIN)).status, 201);

      for (const lang of ["en", "he"] as const) {
        await t.step(lang, async () => {
          const tr = translator(lang);
          // In the page's language on the museum's clock (Asia/Jerusalem), the browser's zone being UTC.
          const date = (iso: string | null) => words(formatDateTime(iso, lang, "Asia/Jerusalem")!);
          const context = await browser.newContext({
            locale: lang === "he" ? "he-IL" : "en-US",
            timezoneId: "UTC",
            viewport: { width: 1280, height: 900 },
          });
          try {
            const page = await context.newPage();
            const watched = await watchPage(page);
            await signInToBackOffice(page, app.url, lang, ADMIN, WAIT);

            // The reports section counts the reasons: every reason listed, the seeded cancel's counted.
            await openSection(page, app.url, lang, "reports", "", WAIT);
            await page.locator(".cancel-reasons[data-loaded]").waitFor({ timeout: WAIT });
            const rows = await texts(page, ".reasons-table tbody tr");
            assert.equal(rows.length, 6);
            assert.ok(rows.includes(`${tr("backofficeDonor.reasons.moved-away")} 1`), rows.join(" | "));
            assert.ok(rows.includes(`${tr("backofficeDonor.reasons.too-expensive")} 0`), rows.join(" | "));
            assert.deepEqual(await texts(page, ".reasons-table tfoot tr"), [
              `${tr("backofficeDonor.reasonsTotal")} 1`,
            ]);
            await assertAxeClean(page, `${lang}: reports`);
            // The outgoing email names the pause's message kind in the page's language.
            await openSection(page, app.url, lang, "email", "", WAIT);
            await page.locator(".outbox[data-loaded]").waitFor({ timeout: WAIT });
            const kinds = await texts(page, ".outbox-table tbody tr td:nth-of-type(1)");
            assert.ok(kinds.includes(tr("backofficeMail.kinds.monthly-changed")), kinds.join(" | "));
            await assertAxeClean(page, `${lang}: outgoing email`);

            // From the history: the row's address opens the donor's view.
            await openSection(page, app.url, lang, "transactions", "", WAIT);
            await page.getByRole("link", { name: DONOR_EMAIL, exact: true }).first().click();
            await page.waitForURL(
              `${app.url}/${lang}/admin/donors?email=${encodeURIComponent(DONOR_EMAIL)}`,
              {
                timeout: WAIT,
              },
            );
            await page.locator(".donor-view[data-loaded]").waitFor({ timeout: WAIT });
            assert.equal(await page.locator("html").getAttribute("dir"), lang === "he" ? "rtl" : "ltr");
            assert.equal(words(await page.locator("h1").innerText()), tr("adminNav.sections.donors"));
            assert.equal(words(await page.locator("h2").innerText()), DONOR_EMAIL);
            assert.equal(await page.inputValue("#donor-lookup-email"), DONOR_EMAIL);

            assert.deepEqual(
              await texts(page, ".donor-records li"),
              [
                tr("backofficeDonor.recordLine", {
                  name: "Ada Levi",
                  country: "Israel",
                  date: date(data.first.createdAt),
                }),
                tr("backofficeDonor.recordLine", {
                  name: "Ada Levi-Cohen",
                  country: "United States",
                  date: date(data.second.createdAt),
                }),
              ].map(words),
            );
            assert.deepEqual(
              await texts(page, ".donor-total"),
              [
                tr("backofficeDonor.totalLine", { amount: listAmount(12_500, 1, lang)!, count: 2 }),
                tr("backofficeDonor.totalLine", { amount: listAmount(12_550, 2, lang)!, count: 2 }),
              ].map(words),
            );
            const summary = words(await page.locator(".donor-summary").innerText());
            assert.ok(summary.includes(date("2024-01-05T10:01:00.000Z")), summary);
            assert.ok(summary.includes(date("2026-01-01T10:01:00.000Z")), summary);

            const paused = (await app.store.subscriptions.get(data.paused.id))!;
            assert.deepEqual(
              await texts(page, ".donor-monthly tbody .badge"),
              [
                tr("backofficeDonor.states.failing", { count: 1, date: date(days(1)) }),
                tr("backofficeDonor.states.active"),
                tr("backofficeDonor.states.paused", { date: date(paused.nextPaymentDate) }),
                tr("backofficeDonor.states.cancelledWithReason", {
                  date: date((await app.store.subscriptions.get(data.cancelled.id))!.cancelledAt),
                  reason: tr("backofficeDonor.reasons.moved-away"),
                }),
                tr("backofficeDonor.states.failed"),
              ].map(words),
            );

            // Six gifts of the two records, newest first; the similar address's gift is not there.
            const gifts = await texts(page, ".donor-gifts tbody tr");
            assert.equal(gifts.length, 6, gifts.join(" | "));
            assert.ok(gifts[0].startsWith(date("2026-02-01T10:01:00.000Z")), gifts[0]);
            assert.ok(gifts[0].includes(tr("transactions.statusError", { code: "033" })), gifts[0]);
            // Issue 26: the catalogue's words in the page's language, the provider's message as a detail.
            const failed = page.locator(".donor-gifts tbody tr").first();
            assert.equal(await failed.locator(".tx-reason").innerText(), tr("transactionError.errors.033"));
            assert.equal(await failed.locator(".tx-detail").innerText(), "Declined");
            const page1 = words(await page.locator(".donor-view").innerText());
            assert.ok(!page1.includes(listAmount(123_400, 1, lang)!), "another donor's gift");
            await assertAxeClean(page, `${lang}: donor view`);
            assert.deepEqual(watched.all(), []);

            // Another address through the page's own form: unknown, said so in the page's language.
            watched.reset();
            await page.fill("#donor-lookup-email", "nobody@example.org");
            await page.getByRole("button", { name: tr("backofficeDonor.lookupButton") }).click();
            await page.waitForURL(/email=nobody%40example\.org$/, { timeout: WAIT });
            await page.locator(".donor-view[data-loaded]").waitFor({ timeout: WAIT });
            assert.equal(
              words(await page.locator(".donor-view [role=alert]").innerText()),
              tr("backofficeDonor.notFound"),
            );
            await assertAxeClean(page, `${lang}: unknown address`);
            // The only problem: the API's 404 for that address.
            assert.deepEqual(
              watched.all().map((line) => line.replace(/^.*\/api\/donor\?.*: HTTP 404$/, "404")).filter((l) =>
                !/Failed to load resource.*404/.test(l)
              ),
              ["404"],
            );
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
