import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import AdminKiosks from "@/islands/AdminKiosks.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/kiosks`: the kiosk devices (issues 13 and 26; owners and admins). The server
 * renders the shell; the island asks the API with the admin's token.
 */
export default function Page({ state }: PageProps<unknown, AppState>) {
  const texts = adminTexts(state, ["kiosk", "transactions", "common.notAvailable", "overview.filter"]);
  return (
    <AdminPage state={state} section="kiosks">
      <AdminKiosks lang={state.lang} timeZone={state.services.config.museumTimeZone} texts={texts} />
    </AdminPage>
  );
}
