import { useMemo, useState } from "preact/hooks";
import type { DonorView } from "@/lib/shared/donor_view.ts";
import { DonorDetails } from "@/islands/admin/DonorView.tsx";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { ApiError } from "@/islands/shared/admin_api.ts";
import { AdminGuard, useAdminFrame } from "@/islands/shared/AdminFrame.tsx";
import { DatesProvider } from "@/islands/shared/dates.tsx";
import { dateFormats } from "@/lib/shared/dates.ts";
import { messageText } from "@/islands/shared/texts.ts";

/** The page's language, the address asked for (the page's `?email`, or null) and the texts. */
export interface AdminDonorProps {
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
 * The back office's donor view (issue 15), `/{lang}/admin/donor?email=…`: every gift under one
 * email address, reached from each row of the transaction history. Guarded like the dashboard
 * (without a stored session it goes to `/{lang}/login`); the data comes from `GET /api/donor`
 * with the admin's token. The address form is a plain GET form of this page, so asking for
 * another donor is a link that can be bookmarked or shared with a colleague (who signs in).
 *
 * An unknown address says so (404), a malformed one asks for a valid one (400), in the page's
 * language; other failures are the back office's usual words.
 */
export default function AdminDonor(props: AdminDonorProps) {
  const { lang, email } = props;
  const dates = useMemo(() => dateFormats(lang, props.timeZone), [lang, props.timeZone]);
  const frame = useAdminFrame(lang, props.texts, (stored) => {
    if (!stored || !email) return;
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
  });
  const { t, api } = frame;
  const [load, setLoad] = useState<Load>(email ? { state: "loading" } : { state: "idle" });
  const [typed, setTyped] = useState(email ?? "");

  const body = (
    <>
      <p>
        <a href={`/${lang}/admin`}>{t("backofficeDonor.back")}</a>
      </p>
      <form class="donor-lookup" method="get" action={`/${lang}/admin/donor`}>
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

  return (
    <DatesProvider dates={dates}>
      <AdminGuard frame={frame}>{body}</AdminGuard>
    </DatesProvider>
  );
}
