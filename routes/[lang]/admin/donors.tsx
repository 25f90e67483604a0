import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import AdminDonors from "@/islands/AdminDonors.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * `/{lang}/admin/donors?email=…`: the back office's view of one donor, every gift under that email
 * address (issues 15 and 26), linked from each row of the transaction history. The session lives in
 * the browser, so the server renders the frame (the shell, the address form, the waiting line) and
 * the island asks the API with the admin's token. The address is read from the query as given
 * (trimmed, at most an address's length); the API validates it.
 */
export default function Page({ state, url }: PageProps<unknown, AppState>) {
  const email = url.searchParams.get("email")?.trim().slice(0, 254) || null;
  const texts = adminTexts(state, [
    "backofficeDonor",
    "transactions",
    "common.notAvailable",
    "refunds.ui.refunded",
  ]);
  return (
    <AdminPage state={state} section="donors">
      <AdminDonors
        lang={state.lang}
        timeZone={state.services.config.museumTimeZone}
        email={email}
        texts={texts}
      />
    </AdminPage>
  );
}
