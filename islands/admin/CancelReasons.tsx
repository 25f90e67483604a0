import { useEffect, useState } from "preact/hooks";
import type { CancelReasonCount } from "@/lib/shared/donor_view.ts";
import { listFailure } from "@/islands/shared/account_forms.ts";
import type { ApiClient } from "@/islands/shared/admin_api.ts";
import { messageText, type Translate } from "@/islands/shared/texts.ts";
import { DataTable } from "./DataTable.tsx";
import { reasonText } from "./donor_links.ts";

/**
 * Why monthly donors cancelled (issue 15): how many monthly gifts were cancelled with each reason
 * the donor's cancel form offers (`GET /api/donor/cancel-reasons`), every reason listed, and the
 * total. Loads once `ready`; rendered by the server with its waiting line.
 */
export function CancelReasons(props: { api: ApiClient; t: Translate; ready: boolean }) {
  const { api, t, ready } = props;
  const [counts, setCounts] = useState<{ reasons: CancelReasonCount[]; total: number } | null>(null);
  const [failure, setFailure] = useState("");

  useEffect(() => {
    if (!ready) return;
    api.request<{ reasons: CancelReasonCount[]; total: number }>("/api/donor/cancel-reasons")
      .then(setCounts)
      .catch((error) => setFailure(t("transactions.errorPrefix") + messageText(t, listFailure(error))));
  }, [ready]);

  return (
    <section
      class="cancel-reasons"
      aria-labelledby="cancel-reasons-title"
      data-loaded={counts ? "" : undefined}
    >
      <h2 id="cancel-reasons-title">{t("backofficeDonor.reasonsTitle")}</h2>
      <p>{t("backofficeDonor.reasonsIntro")}</p>
      {failure && <p class="form-alert" role="alert">{failure}</p>}
      {!counts && !failure && (
        <div class="loading" role="status">
          <span class="spinner" aria-hidden="true" />
          <span>{t("backofficeDonor.reasonsLoading")}</span>
        </div>
      )}
      {counts && (
        <DataTable
          id="cancel-reasons-caption"
          class="reasons-table"
          caption={t("backofficeDonor.reasonsCaption")}
          columns={[t("backofficeDonor.reasonColumn"), t("backofficeDonor.countColumn")]}
          rows={counts.reasons}
          row={(r) => (
            <tr key={r.reason}>
              <th scope="row">{reasonText(t, r.reason)}</th>
              <td class="tx-amount">{r.count}</td>
            </tr>
          )}
          foot={
            <tr>
              <th scope="row">{t("backofficeDonor.reasonsTotal")}</th>
              <td class="tx-amount">{counts.total}</td>
            </tr>
          }
        />
      )}
    </section>
  );
}
