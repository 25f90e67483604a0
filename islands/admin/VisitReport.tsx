import { useEffect, useState } from "preact/hooks";
import type { VisitReport as Report } from "@/lib/shared/visits.ts";
import { listFailure } from "@/islands/shared/account_forms.ts";
import type { ApiClient } from "@/islands/shared/admin_api.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import { messageText, type Translate } from "@/islands/shared/texts.ts";
import { DataTable } from "./DataTable.tsx";

/**
 * The reports' visits (issue 28): visits per day and per level over the last 30 days, with guests
 * and those allowed in anyway (`GET /api/visits/report`). Loads once `ready`.
 */
export function VisitReport(props: { api: ApiClient; t: Translate; lang: string; ready: boolean }) {
  const { api, t, lang, ready } = props;
  const dates = useDates();
  const [report, setReport] = useState<Report | null>(null);
  const [failure, setFailure] = useState("");

  useEffect(() => {
    if (!ready) return;
    api.request<Report>(`/api/visits/report?lang=${lang}`)
      .then(setReport)
      .catch((error) => setFailure(t("transactions.errorPrefix") + messageText(t, listFailure(error))));
  }, [ready]);

  const days = report?.perDay.filter((d) => d.visits > 0).reverse() ?? [];
  return (
    <section class="visit-report" aria-labelledby="visits-day-title" data-loaded={report ? "" : undefined}>
      <h2 id="visits-day-title">{t("frontDesk.reports.perDayTitle")}</h2>
      {failure && <p class="form-alert" role="alert">{failure}</p>}
      {report && (
        <DataTable
          id="visits-day-caption"
          class="visits-day-table"
          caption={t("frontDesk.reports.perDayTitle")}
          columns={["day", "visits", "guests", "overrides"].map((c) => t(`frontDesk.reports.${c}`))}
          rows={days}
          empty={t("frontDesk.reports.none")}
          row={(d) => (
            <tr key={d.day}>
              <th scope="row">{dates.day(d.day) ?? d.day}</th>
              <td class="tx-amount">{d.visits}</td>
              <td class="tx-amount">{d.guests}</td>
              <td class="tx-amount">{d.overrides}</td>
            </tr>
          )}
        />
      )}
      <h2 id="visits-level-title">{t("frontDesk.reports.perLevelTitle")}</h2>
      {report && (
        <DataTable
          id="visits-level-caption"
          class="visits-level-table"
          caption={t("frontDesk.reports.perLevelTitle")}
          columns={["level", "visits", "guests"].map((c) => t(`frontDesk.reports.${c}`))}
          rows={report.perLevel}
          empty={t("frontDesk.reports.none")}
          row={(l) => (
            <tr key={l.levelId ?? "none"}>
              <th scope="row">{l.levelName || t("frontDesk.states.unknown")}</th>
              <td class="tx-amount">{l.visits}</td>
              <td class="tx-amount">{l.guests}</td>
            </tr>
          )}
        />
      )}
    </section>
  );
}
