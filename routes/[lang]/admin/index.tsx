import { PageTitle } from "../../../components/PageTitle.tsx";
import AdminDashboard from "../../../islands/AdminDashboard.tsx";
import type { PageProps } from "../../../lib/framework/mod.ts";
import { textsUnder } from "../../../lib/i18n.ts";
import type { AppState } from "../../../lib/state.ts";

/**
 * `/{lang}/admin`: the back office. The session lives in the browser (spec section 3), so the
 * server sends the frame and the island does the rest: guard, header, approvals, chart, history.
 */
export default function Page({ state, url }: PageProps<unknown, AppState>) {
  const { t, lang } = state;
  const texts = textsUnder(lang, [
    "admin",
    "transactions",
    "dailyTotals",
    "apiErrors",
    "common.notAvailable",
  ]);
  return (
    <section class="admin">
      <PageTitle title={t("pages.admin")} siteName={t("meta.siteName")} />
      <noscript>
        <p class="form-alert">{t("login.noscript")}</p>
      </noscript>
      <AdminDashboard lang={lang} path={url.pathname} texts={texts} />
    </section>
  );
}
