/**
 * The accountant's monthly reports in Chromium, in English and Hebrew (issue 16): from the
 * navigation to the reports section (issue 26), a range chosen in its form (a link to bookmark), the chart
 * the server drew (named, in the page's language and direction), a table per currency with the
 * month's figures and totals, the donors and failed charges, and the CSV downloaded with its
 * header in the page's language. Every state axe clean, no console error.
 */
import assert from "node:assert/strict";
import { translator } from "@/lib/core/i18n.ts";
import { formatMoney } from "@/lib/shared/money.ts";
import { startTestApp } from "@/tests/helpers/app.ts";
import { signInToBackOffice } from "@/tests/helpers/admin_browser.ts";
import { assertAxeClean } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api } from "@/tests/helpers/http.ts";
import { overlappingTexts, smallestSvgText } from "@/tests/helpers/label_overlap.ts";
import { txFixture } from "@/tests/storage/fixtures.ts";

const WAIT = 10_000;
const OWNER = { name: "Dana Levi", email: "dana.owner@museum.org", password: "ledger-and-ink-2026" };

const words = (s: string) => s.replace(/[\u2068\u2069\u200e\u200f]/g, "").replace(/\s+/g, " ").trim();

browserTest("monthly reports in Chromium (en, he): table, server-drawn chart, CSV", async (t) => {
  const app = await startTestApp();
  const browser = await launchBrowser();
  try {
    assert.equal((await api(app.url, "POST", "/api/auth/admin/register", OWNER)).status, 201);
    const user = (email: string) => ({ firstName: "Ada", lastName: "Levi", email });
    for (
      const tx of [
        txFixture({
          createdAt: "2026-01-10T10:00:00.000Z",
          amount: 10_000,
          currency: 1,
          user: user("a@x.org"),
        }),
        txFixture({
          createdAt: "2026-02-10T10:00:00.000Z",
          amount: 2_500,
          currency: 1,
          isMonthly: true,
          user: user("b@x.org"),
        }),
        txFixture({
          createdAt: "2026-02-11T10:00:00.000Z",
          amount: 1_999,
          currency: 2,
          user: user("a@x.org"),
        }),
        txFixture({ kind: "error", createdAt: "2026-02-12T10:00:00.000Z" }),
      ]
    ) await app.store.transactions.record(tx);

    for (const lang of ["en", "he"] as const) {
      await t.step(lang, async () => {
        const tr = translator(lang);
        const context = await browser.newContext({
          locale: lang === "he" ? "he-IL" : "en-US",
          timezoneId: "UTC",
          viewport: { width: 1280, height: 900 },
          acceptDownloads: true,
        });
        try {
          const page = await context.newPage();
          const watched = await watchPage(page);
          await signInToBackOffice(page, app.url, lang, OWNER, WAIT);
          await page.getByRole("navigation", { name: tr("adminNav.label") })
            .getByRole("link", { name: tr("adminNav.sections.reports"), exact: true }).click();
          await page.waitForURL(`${app.url}/${lang}/admin/reports`, { timeout: WAIT });
          await page.locator(".report-view[data-loaded]").waitFor({ timeout: WAIT });
          // The reports section (issue 26): the monthly report under its heading, the cancel reasons below.
          assert.equal(words(await page.locator("h1").innerText()), tr("adminNav.sections.reports"));
          assert.equal(words(await page.locator("#monthly-report-title").innerText()), tr("reports.heading"));
          await page.locator(".cancel-reasons[data-loaded]").waitFor({ timeout: WAIT });
          assert.equal(await page.locator("html").getAttribute("dir"), lang === "he" ? "rtl" : "ltr");
          await assertAxeClean(page, `${lang}: the last twelve months`);

          // The twelve months' labels have room, on a phone and a laptop.
          for (const width of [390, 1280]) {
            await page.setViewportSize({ width, height: 900 });
            // Opened at that width, as on a phone: the chart is drawn for its box.
            await page.reload();
            await page.locator(".report-view[data-loaded] .report-chart-frame svg[role=img]").waitFor({
              timeout: WAIT,
            });
            const labels = ".report-chart-frame svg[role=img] text[text-anchor=middle]";
            const shots = Deno.env.get("CHART_SHOTS");
            if (shots) {
              await page.locator(".report-chart-frame").screenshot({
                path: `${shots}/report-${lang}-${width}.png`,
              });
            }
            const { count, pairs } = await overlappingTexts(page, labels);
            assert.ok(count >= 12, `${lang} ${width}: ${count} month labels`);
            assert.deepEqual(pairs, [], `${lang} ${width}: month labels run into each other`);
            // Not smaller type: the same size on a phone as on a laptop.
            const smallest = await smallestSvgText(page, ".report-chart-frame svg[role=img] text");
            assert.ok(smallest.px >= 11.5, `${lang} ${width}: "${smallest.text}" drawn at ${smallest.px} px`);
          }
          await page.setViewportSize({ width: 1280, height: 900 });

          // A range through the page's form: a link with the months.
          await page.fill("#report-from", "2026-01");
          await page.fill("#report-to", "2026-03");
          await page.getByRole("button", { name: tr("reports.show") }).click();
          await page.waitForURL(`${app.url}/${lang}/admin/reports?from=2026-01&to=2026-03`, {
            timeout: WAIT,
          });
          await page.locator(".report-view[data-loaded]").waitFor({ timeout: WAIT });

          const chart = page.locator(".report-chart-frame svg[role=img]");
          assert.equal(await chart.getAttribute("direction"), lang === "he" ? "rtl" : "ltr");
          assert.equal(await page.locator("#report-chart-title").textContent(), tr("reports.chart.title"));
          assert.equal(await page.locator(".report-chart-frame svg rect title").count(), 3, "three bars");

          const captions = (await page.locator(".report-table caption").allInnerTexts()).map(words);
          assert.deepEqual(
            captions,
            [
              tr("reports.moneyCaption", { currency: tr("chart.currency.nis") }),
              tr("reports.moneyCaption", { currency: tr("chart.currency.usd") }),
              tr("reports.activityCaption"),
            ].map(words),
          );
          const ilsTable = page.locator(".report-table").first();
          const feb = (await ilsTable.locator("tbody tr[data-month='2026-02'] td").allInnerTexts()).map(
            words,
          );
          assert.deepEqual(
            feb.slice(0, 5),
            [
              tr("reports.withCount", { amount: formatMoney(0, 1, lang), count: 0 }),
              tr("reports.withCount", { amount: formatMoney(2_500, 1, lang), count: 1 }),
              tr("reports.withCount", { amount: formatMoney(2_500, 1, lang), count: 1 }),
              tr("reports.withCount", { amount: formatMoney(0, 1, lang), count: 0 }),
              formatMoney(2_500, 1, lang),
            ].map(words),
          );
          const total = (await ilsTable.locator("tfoot td").allInnerTexts()).map(words);
          assert.equal(
            total[2],
            words(tr("reports.withCount", { amount: formatMoney(12_500, 1, lang), count: 2 })),
          );
          const activity = (await page.locator(".report-table").nth(2).locator("tbody tr").allInnerTexts())
            .map(words);
          assert.equal(activity.length, 3);
          assert.ok(activity[1].endsWith("2 1 0"), activity[1]);
          await assertAxeClean(page, `${lang}: January to March`);

          const [download] = await Promise.all([
            page.waitForEvent("download", { timeout: WAIT }),
            page.getByRole("button", { name: tr("reports.download") }).click(),
          ]);
          assert.equal(download.suggestedFilename(), "monthly-report-2026-01-2026-03.csv");
          const csv = new TextDecoder().decode(await Deno.readFile((await download.path())!));
          const rows = csv.split("\r\n").filter((row) => row !== "");
          assert.equal(rows.length, 4);
          assert.ok(rows[0].startsWith(`${tr("reports.csv.month")},`), rows[0]);
          assert.ok(rows[2].startsWith("2026-02,0.00,0,25.00,1,25.00,"), rows[2]);
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
