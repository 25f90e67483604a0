import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import AdminSettings from "@/islands/AdminSettings.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/settings`: the owners' settings section (issue 26): the feature flags. The server
 * renders the shell; the island asks the API with the admin's token (which refuses other roles).
 */
export default function Page({ state }: PageProps<unknown, AppState>) {
  const texts = adminTexts(state, [
    "staffAdmin.flagsTitle",
    "staffAdmin.flagsIntro",
    "staffAdmin.flags",
    "staffAdmin.flagChanged",
    "staffAdmin.on",
    "staffAdmin.off",
    "staffAdmin.turnOn",
    "staffAdmin.turnOff",
    "transactions.errorPrefix",
  ]);
  return (
    <AdminPage state={state} section="settings">
      <AdminSettings lang={state.lang} timeZone={state.services.config.museumTimeZone} texts={texts} />
    </AdminPage>
  );
}
