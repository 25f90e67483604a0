import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import AdminStaff from "@/islands/AdminStaff.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/staff`: the owners' staff section (issues 16 and 26): the registrations waiting for
 * approval, the staff and their roles, deactivation. The session lives in the browser, so the
 * server renders the shell and the island asks the API with the admin's token (which refuses other
 * roles).
 */
export default function Page({ state }: PageProps<unknown, AppState>) {
  const texts = adminTexts(state, ["staffAdmin", "transactions", "common.notAvailable"]);
  return (
    <AdminPage state={state} section="staff">
      <AdminStaff lang={state.lang} timeZone={state.services.config.museumTimeZone} texts={texts} />
    </AdminPage>
  );
}
