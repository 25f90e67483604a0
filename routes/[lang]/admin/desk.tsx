import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import AdminDesk from "@/islands/AdminDesk.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/desk` (issue 28): the Front desk section, today's visits and the way to the desk
 * page. The session lives in the browser, so the server renders the frame and the island asks the
 * API with the admin's token.
 */
export default function Page({ state }: PageProps<unknown, AppState>) {
  const texts = adminTexts(state, ["frontDesk", "membersAdmin.more", "transactions.errorPrefix"]);
  return (
    <AdminPage state={state} section="desk">
      <AdminDesk lang={state.lang} timeZone={state.services.config.museumTimeZone} texts={texts} />
    </AdminPage>
  );
}
