import { useEffect, useState } from "preact/hooks";
import { formatCalendarMonth } from "@/lib/shared/dates.ts";
import { listFailure } from "@/islands/shared/account_forms.ts";
import type { ApiClient } from "@/islands/shared/admin_api.ts";
import { messageText, type Translate } from "@/islands/shared/texts.ts";
import { DataTable } from "./DataTable.tsx";

/** `GET /api/reports/memberships` as the island reads it. */
interface Report {
  perLevel: { levelId: number; levelName: string; count: number }[];
  total: number;
  months: { month: string; ended: number; renewed: number; pending: number; rate: number | null }[];
}

/**
 * The reports' membership figures (issue 27, item 8): active members per level now, and the
 * renewal rate per month over the last twelve months. Loads once `ready`.
 */
export function MembershipReport(props: { api: ApiClient; t: Translate; lang: string; ready: boolean }) {
  const { api, t, lang, ready } = props;
  const [report, setReport] = useState<Report | null>(null);
  const [failure, setFailure] = useState("");

  useEffect(() => {
    if (!ready) return;
    api.request<Report>(`/api/reports/memberships?lang=${lang}`)
      .then(setReport)
      .catch((error) => setFailure(t("transactions.errorPrefix") + messageText(t, listFailure(error))));
  }, [ready]);

  const percent = (rate: number | null) =>
    rate === null
      ? "—"
      : new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(rate);

  return (
    <section
      class="membership-report"
      aria-labelledby="members-level-title"
      data-loaded={report ? "" : undefined}
    >
      <h2 id="members-level-title">{t("membersAdmin.reports.perLevelTitle")}</h2>
      {failure && <p class="form-alert" role="alert">{failure}</p>}
      {report && (
        <DataTable
          id="members-level-caption"
          class="members-level-table"
          caption={t("membersAdmin.reports.perLevelTitle")}
          columns={[t("membersAdmin.reports.level"), t("membersAdmin.reports.members")]}
          rows={report.perLevel}
          row={(l) => (
            <tr key={l.levelId}>
              <th scope="row">{l.levelName || `#${l.levelId}`}</th>
              <td class="tx-amount">{l.count}</td>
            </tr>
          )}
          foot={
            <tr>
              <th scope="row">{t("membersAdmin.reports.total")}</th>
              <td class="tx-amount">{report.total}</td>
            </tr>
          }
        />
      )}
      <h2 id="members-renewal-title">{t("membersAdmin.reports.renewalTitle")}</h2>
      <p>{t("membersAdmin.reports.renewalIntro")}</p>
      {report && (
        <DataTable
          id="members-renewal-caption"
          class="members-renewal-table"
          caption={t("membersAdmin.reports.renewalTitle")}
          columns={["month", "ended", "renewed", "rate"].map((c) => t(`membersAdmin.reports.${c}`))}
          rows={report.months}
          row={(m) => (
            <tr key={m.month}>
              <th scope="row">{formatCalendarMonth(m.month, lang) ?? m.month}</th>
              <td class="tx-amount">{m.ended}</td>
              <td class="tx-amount">{m.renewed}</td>
              <td class="tx-amount">{percent(m.rate)}</td>
            </tr>
          )}
        />
      )}
    </section>
  );
}
