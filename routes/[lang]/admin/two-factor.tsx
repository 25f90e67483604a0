import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import AdminTwoFactor from "@/islands/AdminTwoFactor.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/two-factor`: the staff's two-factor sign-in (issue 16), each admin's own page,
 * linked from the back office's header: set it up with an authenticator app, see the recovery codes
 * once, and (owners) require it for everyone. The session lives in the browser, so the server
 * renders the shell and the island asks the API with the admin's token.
 */
export default function Page({ state }: PageProps<unknown, AppState>) {
  const title = state.t("twoFactor.title");
  const texts = adminTexts(state, ["twoFactor", "transactions.errorPrefix"]);
  return (
    <AdminPage state={state} section={null} title={title}>
      <AdminTwoFactor
        lang={state.lang}
        timeZone={state.services.config.museumTimeZone}
        title={title}
        texts={texts}
      />
    </AdminPage>
  );
}
