import { useEffect, useState } from "preact/hooks";
import type { VisitPage, VisitView } from "@/lib/shared/visits.ts";
import { AdminShell, type SectionView } from "@/islands/admin/AdminShell.tsx";
import { DataTable } from "@/islands/admin/DataTable.tsx";
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

type Load = { rows: VisitView[]; next: string | null; loading: boolean; error: string | null };

function TodaysVisits(props: { view: SectionView }) {
  const { api, t, lang, ready } = props.view;
  const dates = useDates();
  const [load, setLoad] = useState<Load>({ rows: [], next: null, loading: true, error: null });
  const fetchPage = (cursor: string | null, rows: VisitView[]) => {
    setLoad({ rows, next: cursor, loading: true, error: null });
    const at = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    api.request<VisitPage>(`/api/visits?lang=${lang}${at}`)
      .then((page) =>
        setLoad({ rows: [...rows, ...page.data], next: page.next, loading: false, error: null })
      )
      .catch((error) =>
        setLoad({
          rows,
          next: cursor,
          loading: false,
          error: t("transactions.errorPrefix") + messageText(t, listFailure(error)),
        })
      );
  };
  useEffect(() => {
    if (ready) fetchPage(null, []);
  }, [ready]);

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
        {load.loading && (
          <div class="loading" role="status">
            <span class="spinner" aria-hidden="true" />
            <span>{t("frontDesk.loading")}</span>
          </div>
        )}
        {load.error && <p class="form-alert" role="alert">{load.error}</p>}
        {!load.loading && load.next && (
          <button
            type="button"
            class="button button-outline"
            onClick={() => fetchPage(load.next, load.rows)}
          >
            {t("membersAdmin.more")}
          </button>
        )}
      </div>
    </>
  );
}
