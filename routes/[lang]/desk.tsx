import { Head } from "@/lib/framework/mod.ts";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import { textsUnder } from "@/lib/core/i18n.ts";
import Desk from "@/islands/Desk.tsx";
import { guestsOf } from "@/lib/shared/museum.ts";

/**
 * `/{lang}/desk` (issue 28): the front desk, for a tablet. The staff member's session lives in the
 * browser (as the back office's), so the server renders the page and the island makes its calls
 * with the session's token; without JavaScript it says so, as the back office does.
 */
export default function Page({ state }: PageProps<unknown, AppState>) {
  const { t, lang } = state;
  const texts = textsUnder(lang, ["frontDesk", "apiErrors", "transactions.errorPrefix"]);
  return (
    <section class="desk-page">
      <Head title={`${t("frontDesk.pageTitle")} · ${t("meta.siteName")}`}>
        <meta name="robots" content="noindex" />
      </Head>
      <noscript>
        <p class="form-alert">{t("login.noscript")}</p>
      </noscript>
      <Desk
        lang={lang}
        timeZone={state.services.config.museumTimeZone}
        texts={texts}
        levels={(state.museum?.levels ?? []).map((l) => ({
          id: l.id,
          name: l.name[lang],
          guests: guestsOf(l),
        }))}
      />
    </section>
  );
}
