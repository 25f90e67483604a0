import type { VisitPage, VisitView } from "@/lib/shared/visits.ts";
import { AdminShell, type SectionView } from "@/islands/admin/AdminShell.tsx";
import { DataTable } from "@/islands/admin/DataTable.tsx";
import { ShowMore, useMoreRows } from "@/islands/admin/ShowMore.tsx";
import { visitRow } from "@/islands/admin/visit_row.tsx";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import { messageText } from "@/islands/shared/texts.ts";

/** The page's language, zone and texts. */
export interface AdminDeskProps {
  lang: string;
  /** The museum's time zone (`config.museumTimeZone`). */
  timeZone: string;
  texts: Record<string, string>;
}

/**
 * The Front desk section (issue 28), `/{lang}/admin/desk` (the front desk, admins, owners): the link
 * to the desk page and today's visits (`GET /api/visits`), newest first.
 */
export default function AdminDesk(props: AdminDeskProps) {
  return (
    <AdminShell lang={props.lang} timeZone={props.timeZone} section="desk" texts={props.texts}>
      {(view) => <TodaysVisits view={view} />}
    </AdminShell>
  );
}

function TodaysVisits(props: { view: SectionView }) {
  const { api, t, lang, ready } = props.view;
  const dates = useDates();
  const load = useMoreRows<VisitView>(
    (cursor) =>
      api.request<VisitPage>(
        `/api/visits?lang=${lang}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      ),
    ready,
    (error) => t("transactions.errorPrefix") + messageText(t, listFailure(error)),
  );

  return (
    <>
      <p>{t("frontDesk.deskIntro")}</p>
      <p>
        <a class="button button-primary" href={`/${lang}/desk`}>{t("frontDesk.openDesk")}</a>
      </p>
      <div class="desk-visits" aria-live="polite" aria-busy={load.loading ? "true" : "false"}>
        <DataTable
          id="desk-visits-caption"
          class="visits-table"
          caption={t("frontDesk.visitsTitle")}
          columns={["time", "number", "name", "level", "guests", "kind", "desk"].map((c) =>
            t(`frontDesk.columns.${c}`)
          )}
          rows={ready && !(load.loading && load.rows.length === 0) ? load.rows : null}
          loaded={ready && !load.loading}
          empty={t("frontDesk.visitsEmpty")}
          row={(v) => visitRow({ visit: v, t, time: dates.dateTime(v.at) ?? "" })}
        />
        <ShowMore list={load} loading={t("frontDesk.loading")} more={t("membersAdmin.more")} />
      </div>
    </>
  );
}
