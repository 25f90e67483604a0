import { PageTitle } from "@/components/PageTitle.tsx";
import AdminTwoFactor from "@/islands/AdminTwoFactor.tsx";
import { Head, type PageProps } from "@/lib/framework/mod.ts";
import { textsUnder } from "@/lib/core/i18n.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/two-factor`: the staff's two-factor sign-in (issue 16): set it up with an
 * authenticator app, see the recovery codes once, and (owners) require it for everyone. The session
 * lives in the browser, as on `/{lang}/admin`, so the server renders the frame and the island asks
 * the API with the admin's token.
 */
export default function Page({ state }: PageProps<unknown, AppState>) {
  const { t, lang } = state;
  const texts = textsUnder(lang, ["twoFactor", "transactions.errorPrefix", "apiErrors"]);
  return (
    <section class="admin admin-two-factor">
      <Head>
        <meta name="robots" content="noindex" />
      </Head>
      <PageTitle title={t("twoFactor.title")} siteName={t("meta.siteName")} />
      <noscript>
        <p class="form-alert">{t("login.noscript")}</p>
      </noscript>
      <AdminTwoFactor lang={lang} texts={texts} />
    </section>
  );
}
