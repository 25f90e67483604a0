/**
 * The back office in Chromium, in English and Hebrew, on seeded data: the guard, sign-in to the
 * overview, the transactions section (`/{lang}/admin/transactions`, issue 26), restore after reload, logout, the refresh-once-and-retry rule, the transaction
 * history (counters, every filter and their combinations, search on Enter, 'Clear all filters',
 * pagination window and disabled buttons, N/A cells, date and currency formats, bookmarkable and
 * Back-restorable URLs), the daily totals chart drawn from the figures, the list's error
 * catalogue, the pending screen and an approval by another admin, the CSV export against the
 * filtered rows, and axe.
 */
import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { newId } from "@/lib/core/ids.ts";
import { translator } from "@/lib/core/i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { Transaction } from "@/lib/storage/types.ts";
import { startTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { runAxe } from "@/tests/helpers/axe.ts";
import { browserTest, launchBrowser, watchPage } from "@/tests/helpers/browser.ts";
import { api, bearer } from "@/tests/helpers/http.ts";
import { overlappingTexts, smallestSvgText } from "@/tests/helpers/label_overlap.ts";
import { shellReady } from "@/tests/helpers/admin_browser.ts";

const WAIT = 10_000;
const ADMIN = { name: "dana Levi", email: "dana.admin@museum.org", password: "ledger-and-ink-2026" };
const SUCCESSES = 65;
const ERRORS = 12;
// Ten days ago at 09:00 UTC: inside the chart's last 30 days whenever the test runs.
const START = (() => {
  const day = new Date(Date.now() - 10 * 86_400_000);
  return Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 9, 0, 0);
})();
/**
 * A seeded row's time as the table writes it: in the page's language, on the museum's clock
 * (Asia/Jerusalem, `MUSEUM_TIME_ZONE`'s default; the browser's own zone is UTC in these tests), with
 * the zone's offset.
 */
const shownAt = (ms: number, lang: string) =>
  new Intl.DateTimeFormat(lang, {
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: "Asia/Jerusalem",
    timeZoneName: "shortOffset",
  }).format(ms);
const XSS_NAME = `<img src=x onerror="window.__xss=1">`;
const NAMES = [
  ["Noa", "Levi", "noa@example.org"],
  ["שירה", "כהן", "shira@example.co.il"],
  ["Ivan", "Petrov", "ivan@example.ru"],
  ["João", "Silva", "joao@example.com.br"],
  ["Lucía", "García", "lucia@example.es"],
];

/** Successes i = 0…64 (every third monthly), then errors (every fourth monthly), a minute apart. */
function transactions(): Transaction[] {
  const txs: Transaction[] = [];
  for (let i = 0; i < SUCCESSES + ERRORS; i++) {
    const [firstName, lastName, email] = NAMES[i % NAMES.length];
    const success = i < SUCCESSES;
    const currency = i % 2 === 0 ? 1 : 2;
    txs.push({
      id: newId(),
      kind: success ? "success" : "error",
      statusCode: success ? "000" : ["003", "004", "033"][i % 3],
      isMonthly: success ? i % 3 === 0 : i % 4 === 0,
      createdAt: new Date(START + i * 60_000).toISOString(),
      donorId: newId(),
      // The newest error carries markup in the name: it must stay text.
      user: i === SUCCESSES + ERRORS - 1
        ? { firstName: XSS_NAME, lastName: "", email }
        : { firstName, lastName, email },
      // The oldest error has no known amount.
      amount: i === SUCCESSES ? null : 2000 + i,
      currency: i === SUCCESSES ? null : currency,
      resultData: success
        ? {
          // The newest success has no card details: N/A.
          CreditCardNumber: i === SUCCESSES - 1 ? "" : "458045******4580",
          CreditType: i === SUCCESSES - 1 ? "" : i === SUCCESSES - 2 ? "8" : "1",
          DebitTotal: String(2000 + i),
          DebitCurrency: currency,
        }
        : null,
      errorMessage: success ? null : "Declined by the card issuer",
      provider: "sandbox",
      providerTransactionId: `p-${i}`,
    });
  }
  return txs;
}

const count = (pred: (i: number) => boolean, from: number, to: number) =>
  Array.from({ length: to - from }, (_, k) => from + k).filter(pred).length;
const MONTHLY_SUCCESS = count((i) => i % 3 === 0, 0, SUCCESSES);
const MONTHLY_ERRORS = count((i) => i % 4 === 0, SUCCESSES, SUCCESSES + ERRORS);

async function setUp(): Promise<{ app: TestApp; browser: Browser }> {
  const app = await startTestApp();
  await app.store.transactions.import(transactions());
  const res = await api(app.url, "POST", "/api/auth/admin/register", ADMIN);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { app, browser: await launchBrowser() };
}

function context(browser: Browser, lang: Lang): Promise<BrowserContext> {
  return browser.newContext({
    locale: lang === "he" ? "he-IL" : "en-US",
    timezoneId: "UTC",
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
  });
}

/** Signs in (landing on the overview), then opens the transactions section. */
async function signIn(page: Page, app: TestApp, lang: Lang, who = ADMIN): Promise<void> {
  await page.goto(`${app.url}/${lang}/login`);
  await page.locator("button[type=submit]:not([disabled])").waitFor({ timeout: WAIT });
  await page.fill("#login-email", who.email);
  await page.fill("#login-password", who.password);
  await page.click("button[type=submit]");
  await page.waitForURL(`${app.url}/${lang}/admin`, { timeout: WAIT });
  await shellReady(page, WAIT);
  // The overview's requests answered first: leaving it aborts none.
  await page.waitForLoadState("networkidle", { timeout: WAIT });
  await page.goto(`${app.url}/${lang}/admin/transactions`);
}

/** Waits until the table shows the rows of the view in the address bar. */
async function loaded(page: Page): Promise<void> {
  // The chart too: it is asked for again when the box's width changes (a scroll bar comes with
  // the history's rows), and a navigation must not cut that call off.
  await page.waitForFunction(
    () =>
      document.querySelector(".history")?.getAttribute("data-loaded") === location.search &&
      document.querySelector(".daily-totals[data-settled]") !== null,
    null,
    { timeout: WAIT },
  );
}

const query = (page: Page) => new URL(page.url()).search;
/** The history's pagination (the navigation marks its section with `aria-current` too). */
const pages = (page: Page) => page.locator(".pagination");
const rowKinds = (page: Page) =>
  page.locator(".tx-table tbody tr").evaluateAll((rows) => rows.map((r) => r.className));
const pressed = (page: Page, group: string) =>
  page.locator(`[role=group][aria-label="${group}"] [aria-pressed=true]`).innerText();

async function storage(page: Page): Promise<Record<string, string | null>> {
  return await page.evaluate(() => ({
    accessToken: localStorage.getItem("accessToken"),
    refreshToken: localStorage.getItem("refreshToken"),
    admin: localStorage.getItem("admin"),
  }));
}

for (const lang of ["en", "he"] as const) {
  const t = translator(lang);

  browserTest(
    `admin dashboard (${lang}): guard, sign-in, history, filters, pagination, export`,
    async (s) => {
      const { app, browser } = await setUp();
      try {
        const ctx = await context(browser, lang);
        const page = await ctx.newPage();
        const watched = await watchPage(page);

        await s.step("the guard replaces the history entry with the sign-in page", async () => {
          await page.goto(`${app.url}/${lang}/`);
          await page.evaluate((href) => location.assign(href), `/${lang}/admin`);
          await page.waitForURL(`${app.url}/${lang}/login`, { timeout: WAIT });
          await page.goBack();
          await page.waitForURL(`${app.url}/${lang}/`, { timeout: WAIT });
        });

        await s.step("sign-in, then the transactions: the header and both counters", async () => {
          await signIn(page, app, lang);
          await loaded(page);
          assert.equal(await page.locator("html").getAttribute("dir"), lang === "he" ? "rtl" : "ltr");
          assert.equal(await page.locator(".avatar").innerText(), "D");
          assert.equal(await page.locator(".admin-header .admin-name").innerText(), ADMIN.name);
          assert.equal(await page.locator(".admin-header .admin-email").innerText(), ADMIN.email);
          assert.equal(await page.locator("#history-title").innerText(), t("transactions.title"));
          assert.equal(
            await page.locator(".counter-success").innerText(),
            t("transactions.successCount", { count: SUCCESSES }),
          );
          assert.equal(
            await page.locator(".counter-error").innerText(),
            t("transactions.errorCount", { count: ERRORS }),
          );
          assert.equal(
            await page.locator(".page-of").innerText(),
            t("transactions.pageOf", { page: 1, pages: 7 }),
          );
          assert.equal(await page.locator(".tx-table caption").innerText(), t("transactions.caption"));
          const kinds = await rowKinds(page);
          assert.deepEqual(kinds, [...Array(10).fill("tx-success"), ...Array(10).fill("tx-error")]);
          assert.equal(await page.locator(".tx-table tfoot td").innerText(), "20");
          assert.match(
            await page.locator(".tx-table tfoot th").innerText(),
            new RegExp(t("transactions.total")),
          );
          assert.equal(await page.locator(".clear-all").count(), 0, "no filter, no 'Clear all filters'");
          assert.equal(await pressed(page, t("transactions.typeGroup")), t("transactions.all"));
          assert.equal(await pressed(page, t("transactions.paymentGroup")), t("transactions.allPayments"));
        });

        await s.step("cells: N/A for empty values, payment type on success rows only, formats", async () => {
          const na = t("common.notAvailable");
          const cells = (row: number) =>
            page.locator(".tx-table tbody tr").nth(row).locator("th, td").allInnerTexts();
          // Row 0: the newest success (i = 64, monthly? 64 % 3 ≠ 0 → one-time), no card details. The
          // payment type, card number and credit type share a cell, one under another (issue 26).
          const first = await cells(0);
          assert.deepEqual(first[2].split("\n"), [t("transactions.oneTime"), na, na]);
          const amount = new Intl.NumberFormat(lang, { style: "currency", currency: "ILS" }).format(20.64);
          assert.equal(first[3], amount);
          assert.equal(first[4], shownAt(START + 64 * 60_000, lang), "e.g. Nov 1, 2026, 11:04 AM GMT+2");
          // In Hebrew, a Hebrew month (not "Nov 1, 2026"); in both, the museum's offset.
          if (lang === "he") assert.match(first[4], /[\u05d0-\u05ea]/);
          assert.match(first[4], /GMT\u200e?[+-]\u200e?[23]/);
          // Row 1: i = 63, monthly (63 % 3 = 0), installments, USD.
          const second = await cells(1);
          assert.deepEqual(second[2].split("\n"), [
            t("transactions.monthly"),
            "458045******4580",
            t("transactions.creditTypes.8"),
          ]);
          assert.equal(
            second[3],
            new Intl.NumberFormat(lang, { style: "currency", currency: "USD" }).format(20.63),
          );
          // Row 10: the newest error, whose name is markup: shown as text, never run.
          const error = await cells(10);
          assert.equal(error[0].split("\n")[0], XSS_NAME);
          assert.equal(error[2].split("\n")[0], na, "no payment type on an error row");
          assert.equal(await page.evaluate(() => "__xss" in globalThis), false);
          const code = ["003", "004", "033"][(SUCCESSES + ERRORS - 1) % 3];
          assert.ok(error[1].startsWith(t("transactions.statusError", { code })), error[1]);
          // Issue 26: the catalogue's words for the code in the page's language, then the provider's own.
          const reason = page.locator(".tx-table tbody tr").nth(10).locator(".tx-reason");
          assert.equal(await reason.innerText(), t(`transactionError.errors.${code}`));
          const detail = page.locator(".tx-table tbody tr").nth(10).locator(".tx-detail");
          assert.equal(await detail.innerText(), "Declined by the card issuer");
          assert.equal(
            await detail.locator("bdi").innerText(),
            "Declined by the card issuer",
            "the provider's English isolated: it reads left to right in Hebrew too",
          );
        });

        await s.step(
          "pagination: five numbers around the page; Previous and Next disabled at the ends",
          async () => {
            const nav = page.locator(`nav[aria-label="${t("transactions.pagination")}"]`);
            const numbers = () => nav.locator("li button").allInnerTexts();
            assert.deepEqual(await numbers(), ["1", "2", "3", "4", "5"]);
            assert.equal(
              await nav.getByRole("button", { name: t("transactions.previous") }).isDisabled(),
              true,
            );
            await nav.getByRole("button", { name: t("transactions.goToPage", { page: 4 }) }).click();
            await loaded(page);
            assert.equal(query(page), "?page=4");
            assert.deepEqual(await numbers(), ["2", "3", "4", "5", "6"]);
            assert.equal(await nav.locator("[aria-current=page]").innerText(), "4");
            assert.equal(
              await page.locator(".page-of").innerText(),
              t("transactions.pageOf", { page: 4, pages: 7 }),
            );
            // Page 4: successes 31–40 only (the 12 errors end on page 2).
            assert.deepEqual(await rowKinds(page), Array(10).fill("tx-success"));
            await nav.getByRole("button", { name: t("transactions.goToPage", { page: 6 }) }).click();
            await loaded(page);
            await nav.getByRole("button", { name: t("transactions.next") }).click();
            await loaded(page);
            assert.equal(query(page), "?page=7");
            assert.deepEqual(await numbers(), ["3", "4", "5", "6", "7"]);
            assert.equal(await nav.getByRole("button", { name: t("transactions.next") }).isDisabled(), true);
            assert.equal(
              await page.locator(".tx-table tbody tr").count(),
              5,
              "65 successes: 5 on the last page",
            );
            assert.equal(await page.locator(".tx-table tfoot td").innerText(), "5");
            await nav.getByRole("button", { name: t("transactions.previous") }).click();
            await loaded(page);
            assert.equal(query(page), "?page=6");
          },
        );

        await s.step("Back and Forward restore the view; a filter change returns to page 1", async () => {
          await page.goBack();
          await loaded(page);
          assert.equal(query(page), "?page=7");
          assert.equal(await pages(page).locator("[aria-current=page]").innerText(), "7");
          await page.goForward();
          await loaded(page);
          assert.equal(await pages(page).locator("[aria-current=page]").innerText(), "6");
          await page.getByRole("button", { name: t("transactions.monthly"), exact: true }).click();
          await loaded(page);
          assert.equal(query(page), "?payment=monthly");
        });

        await s.step("filters and their combinations", async () => {
          const typeButton = (key: string) =>
            page.locator(`[role=group][aria-label="${t("transactions.typeGroup")}"]`).getByRole("button", {
              name: t(key),
              exact: true,
            });
          const paymentButton = (key: string) =>
            page.locator(`[role=group][aria-label="${t("transactions.paymentGroup")}"]`).getByRole("button", {
              name: t(key),
              exact: true,
            });
          // Monthly, all types: both lists filtered.
          assert.equal(
            await page.locator(".counter-success").innerText(),
            t("transactions.successCount", { count: MONTHLY_SUCCESS }),
          );
          assert.equal(
            await page.locator(".counter-error").innerText(),
            t("transactions.errorCount", { count: MONTHLY_ERRORS }),
          );
          assert.ok(await page.locator(".clear-all").isVisible());
          const monthlyCells = await page.locator(".tx-success .tx-type").allInnerTexts();
          assert.ok(monthlyCells.every((c) => c === t("transactions.monthly")), monthlyCells.join());

          await typeButton("transactions.success").click();
          await loaded(page);
          assert.equal(query(page), "?type=success&payment=monthly");
          assert.deepEqual(await rowKinds(page), Array(10).fill("tx-success"));
          assert.equal(
            await page.locator(".page-of").innerText(),
            t("transactions.pageOf", { page: 1, pages: 3 }),
          );

          await paymentButton("transactions.oneTime").click();
          await loaded(page);
          assert.equal(query(page), "?type=success&payment=one-time");
          const oneTime = await page.locator(".tx-success .tx-type").allInnerTexts();
          assert.ok(oneTime.every((c) => c === t("transactions.oneTime")));

          await typeButton("transactions.errors").click();
          await loaded(page);
          assert.equal(query(page), "?type=error&payment=one-time");
          assert.deepEqual(await rowKinds(page), Array(ERRORS - MONTHLY_ERRORS).fill("tx-error"));
          assert.equal(await page.locator(".pagination").count(), 0, "one page: no pagination");
          assert.equal(await page.locator(".page-of").count(), 0, "one page: no 'Page x of y'");

          await page.locator(".clear-all").click();
          await loaded(page);
          assert.equal(query(page), "");
          assert.equal(await page.locator(".clear-all").count(), 0);
          assert.equal(await page.locator(".tx-table tbody tr").count(), 20);
        });

        await s.step("search applies on Enter only; the clear button removes it", async () => {
          const box = page.getByPlaceholder(t("transactions.searchPlaceholder"));
          await box.fill("LEVI");
          await page.waitForTimeout(300);
          assert.equal(query(page), "", "typing alone changes nothing");
          await box.press("Enter");
          await loaded(page);
          assert.equal(query(page), "?search=LEVI");
          const levi = count((i) => i % 5 === 0, 0, SUCCESSES);
          assert.equal(
            await page.locator(".counter-success").innerText(),
            t("transactions.successCount", { count: levi }),
          );
          const users = await page.locator(".tx-table tbody th").allInnerTexts();
          assert.ok(users.length > 0 && users.every((u) => /levi/i.test(u)), users.join("|"));
          assert.ok(await page.locator(".clear-all").isVisible());
          await page.getByRole("button", { name: t("transactions.clearSearch") }).click();
          await loaded(page);
          assert.equal(query(page), "");
          assert.equal(await box.inputValue(), "");
        });

        await s.step("a bookmarked view opens as it was; a page past the end shows the last", async () => {
          await page.goto(`${app.url}/${lang}/admin/transactions?type=success&payment=monthly&page=2`);
          await loaded(page);
          assert.equal(await pressed(page, t("transactions.typeGroup")), t("transactions.success"));
          assert.equal(await pressed(page, t("transactions.paymentGroup")), t("transactions.monthly"));
          assert.equal(await pages(page).locator("[aria-current=page]").innerText(), "2");
          await page.goto(`${app.url}/${lang}/admin/transactions?type=error&page=40`);
          await loaded(page);
          assert.equal(query(page), "?type=error&page=2");
          assert.equal(await page.locator(".tx-table tbody tr").count(), 2);
        });

        await s.step("the chart: drawn in the browser from the figures, in the page's language", async () => {
          await page.goto(`${app.url}/${lang}/admin/transactions`);
          await loaded(page);
          const chart = page.locator(".chart svg[role=img]");
          await chart.waitFor({ timeout: WAIT });
          assert.equal(await page.locator(".chart-loading").count(), 0, "the skeleton made way");
          assert.equal(await chart.locator("title").first().textContent(), t("chart.title"));
          assert.ok((await chart.locator("desc").textContent())!.length > 0);
          assert.equal(await chart.getAttribute("direction"), lang === "he" ? "rtl" : "ltr");
          // The seeded donations are from ten days ago: a panel per currency, with bars.
          assert.equal(await chart.locator(".chart-panel").count(), 2, "a panel per currency");
          assert.ok(await chart.locator(".chart-bars-1 rect").count() > 0, "NIS bars");
          assert.ok(await chart.locator(".chart-bars-2 rect").count() > 0, "USD bars");
        });

        await s.step("the chart's dates have room and readable type at 390 and 1280 px", async () => {
          for (const width of [390, 1280]) {
            // Resized away from the page: a resized page asks for its chart again (drawn for the
            // box's width), and the next navigation would cut that call off.
            await page.goto("about:blank");
            await page.setViewportSize({ width, height: 900 });
            await page.goto(`${app.url}/${lang}/admin/transactions`);
            await loaded(page);
            await page.locator(".chart svg[role=img]").waitFor({ timeout: WAIT });
            const shots = Deno.env.get("CHART_SHOTS");
            if (shots) {
              await page.locator(".chart").first().screenshot({
                path: `${shots}/daily-${lang}-${width}.png`,
              });
            }
            const { count, pairs } = await overlappingTexts(page, ".chart svg[role=img] .chart-dates text");
            assert.ok(count >= 2, `${lang} ${width}: ${count} dates`);
            assert.deepEqual(pairs, [], `${lang} ${width}: dates run into each other`);
            // Not smaller type: the chart is laid out at its box's width, not shrunk to it.
            const smallest = await smallestSvgText(page, ".chart svg[role=img] text");
            assert.ok(smallest.px >= 11.5, `${lang} ${width}: "${smallest.text}" drawn at ${smallest.px} px`);
          }
          await page.goto("about:blank");
          await page.setViewportSize({ width: 1280, height: 900 });
        });

        await s.step("axe: no violations on the loaded dashboard", async () => {
          await page.goto(`${app.url}/${lang}/admin/transactions`);
          await loaded(page);
          await page.locator(".chart svg[role=img]").waitFor({ timeout: WAIT });
          // The figures' table is built when its disclosure opens; audit it open.
          assert.equal(await page.locator(".chart-table table").count(), 0);
          await page.locator(".chart-table summary").click();
          await page.locator(".chart-table tbody tr").first().waitFor({ timeout: WAIT });
          const audit = await runAxe(page);
          assert.ok(audit.passes > 0);
          assert.deepEqual(audit.violations, []);
        });

        await s.step("the CSV export holds every row of the filtered view", async () => {
          await page.goto(`${app.url}/${lang}/admin/transactions?type=success&payment=monthly`);
          await loaded(page);
          const [download] = await Promise.all([
            page.waitForEvent("download", { timeout: WAIT }),
            page.getByRole("button", { name: t("transactions.exportCsv") }).click(),
          ]);
          assert.match(download.suggestedFilename(), /^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
          const bytes = await Deno.readFile((await download.path())!);
          assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf], "UTF-8 BOM");
          const lines = new TextDecoder().decode(bytes.slice(3)).trimEnd().split("\r\n");
          assert.equal(
            lines.length,
            1 + MONTHLY_SUCCESS,
            "a header and every monthly success (not one page)",
          );
          const session = await storage(page);
          const all = await api(
            app.url,
            "GET",
            `/api/transaction/get-all-success-transactions?isMonthly=true&limit=100`,
            undefined,
            bearer(session.accessToken!),
          );
          const emails = all.body.data.map((d: { user: { email: string } }) => d.user.email).sort();
          const exported = lines.slice(1).map((l) => l.split(",").find((c) => c.includes("@"))!).sort();
          assert.deepEqual(exported, emails);
          assert.match(await page.locator(".export-notice").innerText(), /transactions-.*\.csv/);
        });

        await s.step("restore after reload; logout clears storage and revokes the session", async () => {
          await page.reload();
          await loaded(page);
          const before = await storage(page);
          assert.ok(
            before.accessToken && before.refreshToken && JSON.parse(before.admin!).email === ADMIN.email,
          );
          await page.getByRole("button", { name: t("admin.logout") }).click();
          await page.waitForURL(`${app.url}/${lang}/login`, { timeout: WAIT });
          assert.deepEqual(await storage(page), { accessToken: null, refreshToken: null, admin: null });
          const refresh = await api(app.url, "POST", "/api/auth/admin/refresh", {
            refreshToken: before.refreshToken,
          });
          assert.equal(refresh.status, 401, "the refresh token was revoked on the server");
        });

        assert.deepEqual(watched.all(), []);
        await ctx.close();
      } finally {
        await browser.close();
        await app.close();
      }
    },
  );
}

browserTest("admin dashboard: an expired token is refreshed once and the requests retried", async (s) => {
  const { app, browser } = await setUp();
  try {
    const ctx = await context(browser, "en");
    const page = await ctx.newPage();
    await signIn(page, app, "en");
    await loaded(page);
    const calls: string[] = [];
    page.on("request", (req) => calls.push(new URL(req.url()).pathname));

    await s.step("two lists refused at once share one refresh; each is retried once", async () => {
      const before = await storage(page);
      await page.evaluate(() => localStorage.setItem("accessToken", "expired.token.value"));
      calls.length = 0;
      await page.getByRole("button", { name: "Success", exact: true }).click();
      await loaded(page);
      assert.equal(calls.filter((p) => p === "/api/auth/admin/refresh").length, 1, calls.join("\n"));
      for (
        const path of [
          "/api/transaction/get-all-success-transactions",
          "/api/transaction/get-all-error-transactions",
        ]
      ) {
        assert.equal(calls.filter((p) => p === path).length, 2, `${path}: refused, then retried once`);
      }
      const after = await storage(page);
      assert.notEqual(after.accessToken, "expired.token.value");
      assert.notEqual(after.refreshToken, before.refreshToken, "the refresh token rotated");
      assert.equal(await page.locator(".tx-table tbody tr").count(), 10);
    });

    await s.step(
      "a refused token at start-up: /me is refreshed and retried, the dashboard shows",
      async () => {
        await page.evaluate(() => localStorage.setItem("accessToken", "expired.token.value"));
        calls.length = 0;
        await page.reload();
        await loaded(page);
        assert.equal(calls.filter((p) => p === "/api/auth/admin/refresh").length, 1, calls.join("\n"));
        assert.equal(calls.filter((p) => p === "/api/auth/admin/me").length, 2);
      },
    );

    await s.step("a refused refresh ends the session and goes to sign in", async () => {
      await page.evaluate(() => {
        localStorage.setItem("accessToken", "expired.token.value");
        localStorage.setItem("refreshToken", "not-a-refresh-token");
      });
      await page.reload();
      await page.waitForURL(`${app.url}/en/login`, { timeout: WAIT });
      assert.deepEqual(await storage(page), { accessToken: null, refreshToken: null, admin: null });
    });
    await ctx.close();
  } finally {
    await browser.close();
    await app.close();
  }
});

browserTest("admin dashboard: the list's error catalogue (401, 403, 500, other, network)", async (s) => {
  const { app, browser } = await setUp();
  try {
    const ctx = await context(browser, "en");
    const page = await ctx.newPage();
    await signIn(page, app, "en");
    await loaded(page);
    const t = translator("en");
    const cases: [string, (route: import("playwright-core").Route) => Promise<void>, string][] = [
      [
        "401 after the retry",
        (r) => r.fulfill({ status: 401, json: { message: "x", statusCode: 401 } }),
        t("apiErrors.unauthorized"),
      ],
      [
        "403",
        (r) => r.fulfill({ status: 403, json: { message: "x", statusCode: 403 } }),
        t("apiErrors.forbidden"),
      ],
      ["500", (r) => r.fulfill({ status: 500, body: "oops" }), t("apiErrors.server")],
      [
        "503",
        (r) => r.fulfill({ status: 503, json: { message: "down", statusCode: 503 } }),
        t("apiErrors.server"),
      ],
      [
        "409 with a message",
        (r) => r.fulfill({ status: 409, json: { message: "Busy, try later", statusCode: 409 } }),
        "Busy, try later",
      ],
      ["418 without one", (r) => r.fulfill({ status: 418, body: "" }), t("apiErrors.unexpected")],
      ["network failure", (r) => r.abort("internetdisconnected"), t("apiErrors.network")],
    ];
    for (const [name, answer, message] of cases) {
      await s.step(name, async () => {
        await page.route("**/api/transaction/get-all-error-transactions*", answer);
        await page.reload();
        const alert = page.locator(".history [role=alert]");
        await alert.waitFor({ timeout: WAIT });
        assert.equal(await alert.innerText(), `${t("transactions.errorPrefix")}${message}`);
        assert.equal(await page.locator(".tx-table").count(), 0);
        await page.unroute("**/api/transaction/get-all-error-transactions*");
      });
    }
    await ctx.close();
  } finally {
    await browser.close();
    await app.close();
  }
});

browserTest(
  "admin dashboard: a pending admin waits, another admin approves, then the data shows",
  async (s) => {
    const { app, browser } = await setUp();
    try {
      for (const lang of ["en", "he"] as const) {
        const t = translator(lang);
        const newcomer = {
          name: `Yael ${lang}`,
          email: `yael.${lang}@museum.org`,
          password: "quiet-gallery-lamp-7",
        };
        const pendingCtx = await context(browser, lang);
        const pending = await pendingCtx.newPage();
        const watched = await watchPage(pending);

        await s.step(`${lang}: registration leads to the waiting screen, with no data`, async () => {
          await pending.goto(`${app.url}/${lang}/register`);
          await pending.locator("button[type=submit]:not([disabled])").waitFor({ timeout: WAIT });
          await pending.fill("#register-name", newcomer.name);
          await pending.fill("#register-email", newcomer.email);
          await pending.fill("#register-password", newcomer.password);
          await pending.fill("#register-confirm", newcomer.password);
          await pending.click("button[type=submit]");
          await pending.waitForURL(`${app.url}/${lang}/admin`, { timeout: WAIT });
          await pending.locator("#pending-title").waitFor({ timeout: WAIT });
          assert.equal(await pending.locator("#pending-title").innerText(), t("admin.pendingTitle"));
          assert.equal(await pending.locator(".avatar").innerText(), "Y");
          assert.equal(await pending.locator(".tx-table").count(), 0);
          assert.equal(await pending.locator(".approvals").count(), 0);
          // No role yet: the navigation leads nowhere.
          const nav = pending.getByRole("navigation", { name: t("adminNav.label") });
          assert.equal(await nav.count(), 1);
          assert.equal(await nav.getByRole("link").count(), 0);
          const audit = await runAxe(pending);
          assert.deepEqual(audit.violations, []);
        });

        await s.step(`${lang}: an approved admin sees the registration and approves it`, async () => {
          const ctx = await context(browser, lang);
          const page = await ctx.newPage();
          await signIn(page, app, lang);
          await loaded(page);
          // Approvals are in the staff section (issue 26).
          await page.getByRole("navigation", { name: t("adminNav.label") })
            .getByRole("link", { name: t("adminNav.sections.staff") }).click();
          await page.waitForURL(`${app.url}/${lang}/admin/staff`, { timeout: WAIT });
          const item = page.locator(".approvals li", { hasText: newcomer.email });
          await item.waitFor({ timeout: WAIT });
          await item.getByRole("button", { name: t("admin.approveName", { name: newcomer.name }) }).click();
          await page.locator(".approvals-notice", {
            hasText: t("admin.approvedNotice", { name: newcomer.name }),
          })
            .waitFor({ timeout: WAIT });
          assert.equal(await page.locator(".approvals li", { hasText: newcomer.email }).count(), 0);
          await ctx.close();
        });

        await s.step(`${lang}: 'Check again' shows the newcomer the overview, then the history`, async () => {
          await pending.getByRole("button", { name: t("admin.checkAgain") }).click();
          await pending.locator(".admin-section[data-section=overview]").waitFor({ timeout: WAIT });
          assert.equal(await pending.locator("#pending-title").count(), 0);
          // Approved as a viewer (the default): the navigation has its sections now.
          await pending.getByRole("navigation", { name: t("adminNav.label") })
            .getByRole("link", { name: t("adminNav.sections.transactions") }).click();
          await loaded(pending);
          const stored = JSON.parse((await storage(pending)).admin!);
          assert.equal(stored.status, "approved", "the stored profile follows the server");
          assert.deepEqual(watched.all(), []);
        });
        await pendingCtx.close();
      }
    } finally {
      await browser.close();
      await app.close();
    }
  },
);
