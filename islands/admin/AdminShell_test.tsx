/**
 * The back office's server render (issue 26): the shell (header, navigation, heading) and a
 * section's frame with its waiting states and no data, the same markup the browser hydrates. The
 * transactions section (islands/AdminTransactions.tsx) is the one with the most to wait for.
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { chartSkeleton } from "@/components/DailyTotalsSkeleton.tsx";
import { textsUnder, translator as serverTranslator } from "@/lib/core/i18n.ts";
import { ADMIN_SHELL_TEXTS } from "@/lib/shared/admin_sections.ts";
import AdminTransactions from "@/islands/AdminTransactions.tsx";
import { ChartSkeleton } from "./DailyTotals.tsx";

const PREFIXES = [...ADMIN_SHELL_TEXTS, "transactions", "dailyTotals", "chart", "common.notAvailable"];

function frame(lang: "en" | "he", search = ""): string {
  return renderToString(
    <ChartSkeleton.Provider value={chartSkeleton(lang, "…", "Asia/Jerusalem")}>
      <AdminTransactions
        lang={lang}
        path={`/${lang}/admin/transactions`}
        search={search}
        texts={textsUnder(lang, PREFIXES)}
        timeZone="Asia/Jerusalem"
      />
    </ChartSkeleton.Provider>,
  );
}

for (const lang of ["en", "he"] as const) {
  const t = serverTranslator(lang);

  Deno.test(`back office shell (${lang}): header, the navigation's room, the heading; no role yet`, () => {
    const html = frame(lang);
    // The navigation landmark is there, named; its menu names the section; no link before the role is known.
    assert.ok(html.includes(`<nav class="admin-nav" aria-label="${t("adminNav.label")}">`));
    assert.ok(
      html.includes(
        `<summary>${t("adminNav.menuAt", { section: t("adminNav.sections.transactions") })}</summary>`,
      ),
    );
    assert.equal(
      [...html.matchAll(/<ul class="admin-nav-links [^"]*"><\/ul>/g)].length,
      2,
      "both lists empty",
    );
    assert.ok(html.includes(`<h1>${t("adminNav.sections.transactions")}</h1>`));
    assert.ok(html.includes(`href="/${lang}/admin/two-factor"`), "the header's two-factor link");
    assert.ok(!html.includes("role-notice"), "no role, no refusal: the content waits in its frame");
    assert.match(html, /<div class="admin-section" data-section="transactions">/);
  });

  Deno.test(`transactions frame (${lang}): header, sections and waiting states, no data`, () => {
    const html = frame(lang);
    // The header's box says the sign-in is being checked; the avatar waits empty.
    assert.match(html, /<span class="avatar" aria-hidden="true"><\/span>/);
    assert.ok(
      html.includes(`<span class="admin-name admin-checking" role="status">${t("admin.checking")}</span>`),
    );
    assert.ok(html.includes(t("admin.logout")));
    // Both sections with their headings, the chart's room and the history's loading line.
    assert.ok(html.includes(`<h2 id="daily-title">${t("dailyTotals.title")}</h2>`));
    assert.ok(html.includes(
      `<div class="chart-loading" role="status"><span class="visually-hidden">${
        t("dailyTotals.loading")
      }</span>`,
    ));
    assert.match(html, /<div class="chart"><svg [^>]*aria-hidden="true"/);
    assert.ok(html.includes(`<h2 id="history-title">${t("transactions.title")}</h2>`));
    assert.ok(html.includes(t("transactions.loading")));
    // The counters' line keeps its room, empty; no export before the server has confirmed the admin.
    assert.match(html, /<p class="counters"><\/p>/);
    assert.match(
      html,
      new RegExp(
        `<button type="button" class="button button-outline" disabled\\s*>${t("transactions.exportCsv")}<`,
      ),
    );
    // No table, no approvals, no pending screen: nothing that needs the session.
    for (const absent of ["tx-table", 'class="approvals"', "pending-title", "form-alert"]) {
      assert.ok(!html.includes(absent), absent);
    }
  });
}

Deno.test("transactions frame: the filters show the view of the page's query", () => {
  const t = serverTranslator("en");
  const html = frame("en", "?type=error&payment=monthly&search=levi&page=2");
  const pressed = [...html.matchAll(/aria-pressed="true"[^>]*>([^<]+)</g)].map((m) => m[1]);
  assert.deepEqual(pressed, [t("transactions.errors"), t("transactions.monthly")]);
  assert.match(html, /<input id="tx-search"[^>]*value="levi"/);
  assert.ok(html.includes(t("transactions.clearAll")));
});
