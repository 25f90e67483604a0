import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import AdminEmail from "@/islands/AdminEmail.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/email`: the outgoing email (issues 14 and 26; owners and admins). The server
 * renders the shell; the island asks the API with the admin's token.
 */
export default function Page({ state }: PageProps<unknown, AppState>) {
  const texts = adminTexts(state, [
    "backofficeMail",
    "transactions",
    "common.notAvailable",
    "overview.filter",
  ]);
  return (
    <AdminPage state={state} section="email">
      <AdminEmail lang={state.lang} timeZone={state.services.config.museumTimeZone} texts={texts} />
    </AdminPage>
  );
}
