import { PageTitle } from "@/components/PageTitle.tsx";
import AdminReports from "@/islands/AdminReports.tsx";
import { Head, type PageProps } from "@/lib/framework/mod.ts";
import { textsUnder } from "@/lib/core/i18n.ts";
import type { AppState } from "@/lib/app/state.ts";

/** A month as the query may give it (the API checks it again), else null. */
const monthParam = (url: URL, name: string) => {
  const value = url.searchParams.get(name)?.trim() ?? "";
  return /^\d{4}-\d{2}$/.test(value) ? value : null;
};

/**
 * `/{lang}/admin/reports?from=YYYY-MM&to=YYYY-MM`: the accountant's monthly reports (issue 16),
 * for owners, admins and finance. The session lives in the browser, as on `/{lang}/admin`, so the
 * server renders the frame (title, the months form, the waiting line) and the island asks the API
 * with the admin's token for the figures and for the chart, which the server draws.
 */
export default function Page({ state, url }: PageProps<unknown, AppState>) {
  const { t, lang } = state;
  const texts = textsUnder(lang, ["reports", "chart.currency", "transactions.errorPrefix", "apiErrors"]);
  return (
    <section class="admin admin-reports">
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <PageTitle title={t("reports.pageTitle")} siteName={t("meta.siteName")} />
      <noscript>
        <p class="form-alert">{t("login.noscript")}</p>
      </noscript>
      <AdminReports
        lang={lang}
        from={monthParam(url, "from")}
        to={monthParam(url, "to")}
        texts={texts}
        timeZone={state.services.config.museumTimeZone}
      />
    </section>
  );
}
