import { PageTitle } from "@/components/PageTitle.tsx";
import AdminDonor from "@/islands/AdminDonor.tsx";
import { Head, type PageProps } from "@/lib/framework/mod.ts";
import { textsUnder } from "@/lib/core/i18n.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/donor?email=…`: the back office's view of one donor, every gift under that email
 * address (issue 15), linked from each row of the transaction history. The session lives in the
 * browser, as on `/{lang}/admin`, so the server renders the frame (title, the address form, the
 * waiting line) and the island asks the API with the admin's token. The address is read from the
 * query as given (trimmed, at most an address's length); the API validates it.
 */
export default function Page({ state, url }: PageProps<unknown, AppState>) {
  const { t, lang } = state;
  const email = url.searchParams.get("email")?.trim().slice(0, 254) || null;
  const texts = textsUnder(lang, [
    "backofficeDonor",
    "transactions",
    "apiErrors",
    "common.notAvailable",
    "refunds.ui.refunded",
  ]);
  return (
    <section class="admin admin-donor">
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <PageTitle title={t("backofficeDonor.pageTitle")} siteName={t("meta.siteName")} />
      <noscript>
        <p class="form-alert">{t("login.noscript")}</p>
      </noscript>
      <AdminDonor lang={lang} email={email} texts={texts} timeZone={state.services.config.museumTimeZone} />
    </section>
  );
}
