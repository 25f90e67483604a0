import { AdminPage, adminTexts } from "@/components/AdminPage.tsx";
import AdminReports from "@/islands/AdminReports.tsx";
import type { PageProps } from "@/lib/framework/mod.ts";
import type { AppState } from "@/lib/app/state.ts";

/** A month as the query may give it (the API checks it again), else null. */
const monthParam = (url: URL, name: string) => {
  const value = url.searchParams.get(name)?.trim() ?? "";
  return /^\d{4}-\d{2}$/.test(value) ? value : null;
};

/**
 * `/{lang}/admin/reports?from=YYYY-MM&to=YYYY-MM`: the reports section (issues 16 and 26): the
 * accountant's monthly report (owners, admins and finance) and why monthly donors cancelled (every
 * role). The session lives in the browser, so the server renders the shell (the months form, the
 * waiting lines) and the island asks the API with the admin's token for the figures and for the
 * chart, which the server draws.
 */
export default function Page({ state, url }: PageProps<unknown, AppState>) {
  const texts = adminTexts(state, [
    "reports",
    "chart.currency",
    // The membership figures (`islands/admin/MembershipReport.tsx`).
    "membersAdmin.reports",
    // The visits at the front desk (`islands/admin/VisitReport.tsx`, issue 28).
    "frontDesk.reports",
    "frontDesk.states.unknown",
    // The cancel reasons' section (`islands/admin/CancelReasons.tsx`).
    "backofficeDonor.reasons",
    "backofficeDonor.reasonsTitle",
    "backofficeDonor.reasonsIntro",
    "backofficeDonor.reasonsLoading",
    "backofficeDonor.reasonsCaption",
    "backofficeDonor.reasonColumn",
    "backofficeDonor.countColumn",
    "backofficeDonor.reasonsTotal",
  ]);
  return (
    <AdminPage state={state} section="reports">
      <AdminReports
        lang={state.lang}
        timeZone={state.services.config.museumTimeZone}
        from={monthParam(url, "from")}
        to={monthParam(url, "to")}
        texts={texts}
      />
    </AdminPage>
  );
}
