/**
 * The back office's server render: the dashboard's frame with its waiting states and no data, the
 * same markup the browser hydrates (islands/AdminDashboard.tsx).
 */
import assert from "node:assert/strict";
import { renderToString } from "preact-render-to-string";
import { chartSkeleton } from "@/components/DailyTotalsSkeleton.tsx";
import { textsUnder, translator as serverTranslator } from "@/lib/core/i18n.ts";
import AdminDashboard from "@/islands/AdminDashboard.tsx";
import { ChartSkeleton } from "@/islands/admin/DailyTotals.tsx";

const PREFIXES = ["admin", "transactions", "dailyTotals", "chart", "apiErrors", "common.notAvailable"];

function frame(lang: "en" | "he", search = ""): string {
  return renderToString(
    <ChartSkeleton.Provider value={chartSkeleton(lang, "…", "Asia/Jerusalem")}>
      <AdminDashboard
        lang={lang}
        path={`/${lang}/admin`}
        search={search}
        texts={textsUnder(lang, PREFIXES)}
        timeZone="Asia/Jerusalem"
      />
    </ChartSkeleton.Provider>,
  );
}

for (const lang of ["en", "he"] as const) {
  const t = serverTranslator(lang);

  Deno.test(`dashboard frame (${lang}): header, sections and waiting states, no data`, () => {
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

Deno.test("dashboard frame: the filters show the view of the page's query", () => {
  const t = serverTranslator("en");
  const html = frame("en", "?type=error&payment=monthly&search=levi&page=2");
  const pressed = [...html.matchAll(/aria-pressed="true"[^>]*>([^<]+)</g)].map((m) => m[1]);
  assert.deepEqual(pressed, [t("transactions.errors"), t("transactions.monthly")]);
  assert.match(html, /<input id="tx-search"[^>]*value="levi"/);
  assert.ok(html.includes(t("transactions.clearAll")));
});
