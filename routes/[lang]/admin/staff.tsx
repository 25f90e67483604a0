import { PageTitle } from "@/components/PageTitle.tsx";
import AdminStaff from "@/islands/AdminStaff.tsx";
import { Head, type PageProps } from "@/lib/framework/mod.ts";
import { textsUnder } from "@/lib/core/i18n.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/staff`: the owners' page (issue 16): the staff and their roles, deactivation, the
 * feature flags, the kiosk devices (read only). The session lives in the browser, as on `/{lang}/admin`, so the server renders
 * the frame and the island asks the API with the admin's token (which refuses other roles).
 */
export default function Page({ state }: PageProps<unknown, AppState>) {
  const { t, lang } = state;
  const texts = textsUnder(lang, ["staffAdmin", "kiosk", "transactions", "apiErrors", "common.notAvailable"]);
  return (
    <section class="admin admin-staff">
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <PageTitle title={t("staffAdmin.pageTitle")} siteName={t("meta.siteName")} />
      <noscript>
        <p class="form-alert">{t("login.noscript")}</p>
      </noscript>
      <AdminStaff lang={lang} texts={texts} timeZone={state.services.config.museumTimeZone} />
    </section>
  );
}
