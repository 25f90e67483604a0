import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import AdminSettings from "@/islands/AdminSettings.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import { translator } from "@/lib/core/i18n.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";
import { MIN_AMOUNT } from "@/lib/shared/money.ts";

/**
 * `/{lang}/admin/settings`: the owners' settings section (issues 26 and 27): the museum's identity
 * and levels, and the feature flags. The server renders the shell; the island asks the API with
 * the admin's token (which refuses other roles).
 */
export default function Page({ state }: PageProps<unknown, AppState>) {
  const texts = adminTexts(state, [
    "museumEditor",
    "frontDesk.levelGuests",
    "frontDesk.levelGuestsError",
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
  const languages = LANGUAGES.map((code) => ({ code, name: translator(code)("languageName") }));
  const { config } = state.services;
  return (
    <AdminPage state={state} section="settings">
      <AdminSettings
        lang={state.lang}
        timeZone={config.museumTimeZone}
        texts={texts}
        languages={languages}
        limits={{ minAmount: MIN_AMOUNT, maxAmount: config.payments.maxAmount }}
      />
    </AdminPage>
  );
}
