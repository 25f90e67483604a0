import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";
import Desk from "@/islands/Desk.tsx";
import { guestsOf } from "@/lib/shared/museum.ts";

/**
 * `/{lang}/desk` (issue 28): the front desk, for a tablet. The staff member's session lives in the
 * browser (as the back office's, in whose shell it is), so the server renders the frame and the
 * island makes its calls with the session's token; without JavaScript it says so.
 */
export default function Page({ state }: PageProps<unknown, AppState>) {
  const texts = adminTexts(state, ["frontDesk", "transactions.errorPrefix"]);
  return (
    <AdminPage state={state} section="desk">
      <Desk
        lang={state.lang}
        timeZone={state.services.config.museumTimeZone}
        texts={texts}
        levels={(state.museum?.levels ?? []).map((l) => ({
          id: l.id,
          name: l.name[state.lang],
          guests: guestsOf(l),
        }))}
      />
    </AdminPage>
  );
}
