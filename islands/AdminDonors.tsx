import { useEffect, useState } from "preact/hooks";
import type { DonorView } from "@/lib/shared/donor_view.ts";
import { AdminShell, type SectionView } from "@/islands/admin/AdminShell.tsx";
import { DonorDetails } from "@/islands/admin/DonorView.tsx";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { ApiError } from "@/islands/shared/admin_api.ts";
import { messageText } from "@/islands/shared/texts.ts";

/** The page's language, the address asked for (the page's `?email`, or null) and the texts. */
export interface AdminDonorsProps {
  lang: string;
  /** The museum's time zone (`config.museumTimeZone`): times are shown on its clock, with its offset. */
  timeZone: string;
  email: string | null;
  texts: Record<string, string>;
}

type Load =
  | { state: "idle" }
  | { state: "loading" }
  | { state: "failed"; message: string }
  | { state: "ready"; view: DonorView };

/**
 * The donors section (issues 15 and 26), `/{lang}/admin/donors?email=…` (owners, admins, finance):
 * every gift under one email address, reached from each row of the transaction history. The data
 * comes from `GET /api/donor` with the admin's token once the shell has confirmed the admin. The
 * address form is a plain GET form of this page, so asking for another donor is a link that can be
 * bookmarked or shared with a colleague (who signs in).
 *
 * An unknown address says so (404), a malformed one asks for a valid one (400), in the page's
 * language; other failures are the back office's usual words.
 */
export default function AdminDonors(props: AdminDonorsProps) {
  return (
    <AdminShell lang={props.lang} timeZone={props.timeZone} section="donors" texts={props.texts}>
      {(view) => <DonorLookup view={view} email={props.email} />}
    </AdminShell>
  );
}

function DonorLookup(props: { view: SectionView; email: string | null }) {
  const { api, t, lang, ready } = props.view;
  const { email } = props;
  const [load, setLoad] = useState<Load>(email ? { state: "loading" } : { state: "idle" });
  const [typed, setTyped] = useState(email ?? "");

  useEffect(() => {
    if (!ready || !email) return;
    api.request<DonorView>(`/api/donor?email=${encodeURIComponent(email)}&lang=${lang}`)
      .then((view) => setLoad({ state: "ready", view }))
      .catch((error) => {
        const status = error instanceof ApiError ? error.status : null;
        const message = status === 404
          ? t("backofficeDonor.notFound")
          : status === 400
          ? t("backofficeDonor.invalidEmail")
          : t("transactions.errorPrefix") + messageText(t, listFailure(error));
        setLoad({ state: "failed", message });
      });
  }, [ready]);

  return (
    <>
      <form class="donor-lookup" method="get" action={`/${lang}/admin/donors`}>
        <div class="field">
          <label for="donor-lookup-email">{t("backofficeDonor.lookupLabel")}</label>
          <input
            id="donor-lookup-email"
            name="email"
            type="email"
            required
            maxLength={254}
            autocomplete="off"
            dir="ltr"
            value={typed}
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="button button-primary">{t("backofficeDonor.lookupButton")}</button>
      </form>
      {/* `data-loaded`: the answer is on screen (tests wait for it). */}
      <div
        class="donor-view"
        aria-live="polite"
        aria-busy={load.state === "loading" ? "true" : "false"}
        data-loaded={load.state === "ready" || load.state === "failed" ? "" : undefined}
      >
        {load.state === "idle" && <p>{t("backofficeDonor.noEmail")}</p>}
        {load.state === "loading" && (
          <div class="loading" role="status">
            <span class="spinner" aria-hidden="true" />
            <span>{t("backofficeDonor.loading")}</span>
          </div>
        )}
        {load.state === "failed" && <p class="form-alert" role="alert">{load.message}</p>}
        {load.state === "ready" && <DonorDetails view={load.view} t={t} lang={lang} />}
      </div>
    </>
  );
}
