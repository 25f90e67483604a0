import { chartSkeleton } from "@/components/DailyTotalsSkeleton.tsx";
import { PageTitle } from "@/components/PageTitle.tsx";
import AdminDashboard from "@/islands/AdminDashboard.tsx";
import { ChartSkeleton } from "@/islands/admin/DailyTotals.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import { textsUnder } from "@/lib/core/i18n.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin`: the back office. The session lives in the browser (spec section 3), so the
 * server renders the dashboard's frame with its waiting states (no data) and the island does the
 * rest: guard, header, approvals, chart, history. The query is the history's view; the chart waits
 * as its skeleton (the last 30 days' date axis, drawn here) and is drawn by the island from the
 * API's figures, with the `chart.*` texts given here.
 */
export default function Page({ state, url }: PageProps<unknown, AppState>) {
  const { t, lang } = state;
  const texts = textsUnder(lang, [
    "admin",
    "transactions",
    "dailyTotals",
    "chart",
    "kiosk",
    "backofficeMail",
    "backofficeDonor",
    "apiErrors",
    "common.notAvailable",
    "portalPrivacy.erasedDonor",
    "staffAdmin.navLabel",
    "staffAdmin.navStaff",
    "staffAdmin.navAudit",
    "staffAdmin.approveRole",
    "staffAdmin.roles",
    "refunds.ui",
    "twoFactor.link",
    "reports.link",
    "overview",
  ]);
  return (
    <section class="admin">
      <PageTitle title={t("pages.admin")} siteName={t("meta.siteName")} />
      <noscript>
        <p class="form-alert">{t("login.noscript")}</p>
      </noscript>
      <ChartSkeleton.Provider
        value={chartSkeleton(lang, t("dailyTotals.loading"), state.services.config.museumTimeZone)}
      >
        <AdminDashboard
          lang={lang}
          path={url.pathname}
          search={url.search}
          texts={texts}
          timeZone={state.services.config.museumTimeZone}
        />
      </ChartSkeleton.Provider>
    </section>
  );
}
