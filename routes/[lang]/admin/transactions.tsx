import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import { chartSkeleton } from "@/components/DailyTotalsSkeleton.tsx";
import AdminTransactions from "@/islands/AdminTransactions.tsx";
import { ChartSkeleton } from "@/islands/admin/DailyTotals.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/transactions`: the daily totals and the transaction history (issue 26; the query is
 * the history's view). The server renders the shell and the section's frame with its waiting states
 * (no data): the chart as its skeleton (the last 30 days' date axis, drawn here) and the history's
 * loading line; the island draws the chart from the API's figures with the `chart.*` texts given
 * here, and loads the history.
 */
export default function Page({ state, url }: PageProps<unknown, AppState>) {
  const { t, lang } = state;
  const texts = adminTexts(state, [
    "transactions",
    "dailyTotals",
    "chart",
    "backofficeMail",
    "backofficeDonor",
    "common.notAvailable",
    "portalPrivacy.erasedDonor",
    "refunds.ui",
    "overview.filter",
  ]);
  return (
    <AdminPage state={state} section="transactions">
      <ChartSkeleton.Provider
        value={chartSkeleton(lang, t("dailyTotals.loading"), state.services.config.museumTimeZone)}
      >
        <AdminTransactions
          lang={lang}
          timeZone={state.services.config.museumTimeZone}
          path={url.pathname}
          search={url.search}
          texts={texts}
        />
      </ChartSkeleton.Provider>
    </AdminPage>
  );
}
