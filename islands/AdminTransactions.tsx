import { AdminShell } from "@/islands/admin/AdminShell.tsx";
import { DailyTotalsPanel } from "@/islands/admin/DailyTotals.tsx";
import { TransactionHistory } from "@/islands/admin/TransactionHistory.tsx";
import { Deferred } from "@/islands/shared/Deferred.tsx";

/** The page's language, its own path and query (the history's view lives in the query) and the texts. */
export interface AdminTransactionsProps {
  lang: string;
  /** The museum's time zone (`config.museumTimeZone`): times are shown on its clock, with its offset. */
  timeZone: string;
  path: string;
  search: string;
  texts: Record<string, string>;
}

/**
 * The transactions section, `/{lang}/admin/transactions` (issue 26; every role): the daily totals
 * of the last 30 days and the transaction history (spec sections 2 and 4), its view in the query,
 * with each gift's receipt, resend and refund for those who see personal data. Both wait in their
 * frame (the chart's skeleton, the history's loading line) and load once the server has confirmed
 * the admin; the history hydrates in a task of its own (`Deferred`).
 */
export default function AdminTransactions(props: AdminTransactionsProps) {
  return (
    <AdminShell lang={props.lang} timeZone={props.timeZone} section="transactions" texts={props.texts}>
      {({ api, t, lang, ready, role }) => (
        <>
          <DailyTotalsPanel api={api} t={t} lang={lang} ready={ready} />
          <Deferred class="admin-sections">
            <TransactionHistory
              api={api}
              t={t}
              lang={lang}
              path={props.path}
              search={props.search}
              ready={ready}
              personalData={role !== "viewer"}
            />
          </Deferred>
        </>
      )}
    </AdminShell>
  );
}
