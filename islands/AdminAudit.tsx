import { useEffect, useState } from "preact/hooks";
import type { AuditActor, AuditPage } from "@/lib/shared/audit.ts";
import { CursorPager, useCursorPages } from "@/islands/admin/CursorPager.tsx";
import { Address, DataTable } from "@/islands/admin/DataTable.tsx";
import { saveDownload } from "@/islands/admin/download.ts";
import { AdminShell, type SectionView } from "@/islands/admin/AdminShell.tsx";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import { messageText } from "@/islands/shared/texts.ts";

/** The page's language, its filters as the query gave them, the actions the log records, the texts. */
export interface AdminAuditProps {
  lang: string;
  /** The museum's time zone (`config.museumTimeZone`): times are shown on its clock, with its offset. */
  timeZone: string;
  filters: AuditFilters;
  actions: readonly string[];
  texts: Record<string, string>;
}

/** The page's filters: an admin id, an action, and the first and last day (`YYYY-MM-DD`, the museum's days). */
export interface AuditFilters {
  actor: string;
  action: string;
  from: string;
  to: string;
}

/** The API query of `filters`: the last day is included (the API's `to` is exclusive). */
export function auditQuery(filters: AuditFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.actor) query.set("actor", filters.actor);
  if (filters.action) query.set("action", filters.action);
  if (filters.from) query.set("from", filters.from);
  if (filters.to) {
    const next = new Date(`${filters.to}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    if (!Number.isNaN(next.getTime())) query.set("to", next.toISOString().slice(0, 10));
  }
  return query;
}

/**
 * The audit log section (issues 16 and 26), `/{lang}/admin/audit` (owners and admins): what the
 * staff did, newest first, filtered by who, action and period (a plain GET form of this page, so a
 * filtered view is a link), a page at a time, and the same entries as a CSV file.
 */
export default function AdminAudit(props: AdminAuditProps) {
  return (
    <AdminShell lang={props.lang} timeZone={props.timeZone} section="audit" texts={props.texts}>
      {(view) => <AuditLog view={view} filters={props.filters} actions={props.actions} />}
    </AdminShell>
  );
}

function AuditLog(props: { view: SectionView; filters: AuditFilters; actions: readonly string[] }) {
  const { api, t, lang, ready } = props.view;
  const { filters } = props;
  const dates = useDates();
  const [actors, setActors] = useState<AuditActor[]>([]);
  const [notice, setNotice] = useState("");
  // The form's fields as typed (submitted as a GET of this page).
  const [form, setForm] = useState<AuditFilters>(filters);
  const field = (name: keyof AuditFilters) => ({
    name,
    value: form[name],
    onChange: (e: Event) => setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value }),
  });
  const failed = (error: unknown) =>
    setNotice(t("transactions.errorPrefix") + messageText(t, listFailure(error)));
  useEffect(() => {
    if (ready) api.request<AuditActor[]>("/api/audit/actors").then(setActors).catch(failed);
  }, [ready]);
  const query = auditQuery(filters);
  const pages = useCursorPages(
    (at) => {
      const q = new URLSearchParams(query);
      if (at) q.set("cursor", at);
      return api.request<AuditPage>(`/api/audit?${q}`);
    },
    ready,
    failed,
  );
  const page = pages.page;

  async function download() {
    setNotice(t("staffAdmin.downloading"));
    try {
      const res = await api.response(`/api/audit/export?${query}`);
      setNotice(t("staffAdmin.downloaded", { file: await saveDownload(res, "audit.csv") }));
    } catch (error) {
      failed(error);
    }
  }

  const actionName = (action: string) => t(`staffAdmin.actions.${action}`);
  return (
    <>
      <p>{t("staffAdmin.auditIntro")}</p>
      <form class="audit-filters" method="get" action={`/${lang}/admin/audit`}>
        <div class="field">
          <label for="audit-actor">{t("staffAdmin.filterWho")}</label>
          <select id="audit-actor" {...field("actor")}>
            <option value="">{t("staffAdmin.anyone")}</option>
            {filters.actor && !actors.some((a) => a.id === filters.actor) && (
              <option value={filters.actor}>{filters.actor}</option>
            )}
            {actors.map((a) => <option key={a.id} value={a.id}>{`${a.name} (${a.email})`}</option>)}
          </select>
        </div>
        <div class="field">
          <label for="audit-action">{t("staffAdmin.filterAction")}</label>
          <select id="audit-action" {...field("action")}>
            <option value="">{t("staffAdmin.anyAction")}</option>
            {props.actions.map((a) => <option key={a} value={a}>{actionName(a)}</option>)}
          </select>
        </div>
        <div class="field">
          <label for="audit-from">{t("staffAdmin.filterFrom")}</label>
          <input id="audit-from" type="date" {...field("from")} />
        </div>
        <div class="field">
          <label for="audit-to">{t("staffAdmin.filterTo")}</label>
          <input id="audit-to" type="date" {...field("to")} />
        </div>
        <button type="submit" class="button button-primary">{t("staffAdmin.filter")}</button>
        <button type="button" class="button button-outline" onClick={download}>
          {t("staffAdmin.exportCsv")}
        </button>
      </form>
      <p class="audit-notice" role="status">{notice}</p>
      <DataTable
        id="audit-caption"
        class="audit-table"
        caption={t("staffAdmin.auditTitle")}
        columns={["time", "who", "action", "address", "target", "changes"].map((c) =>
          t(`staffAdmin.auditColumns.${c}`)
        )}
        rows={page?.data}
        row={(e) => (
          <tr key={e.id} data-action={e.action}>
            <th scope="row">
              <time dateTime={e.at}>{dates.dateTime(e.at)}</time>
            </th>
            <td>
              <span dir="ltr">
                <Address email={e.actorEmail} />
              </span>
            </td>
            <td>{actionName(e.action)}</td>
            <td>
              <span dir="ltr">{e.address}</span>
            </td>
            <td>
              <span dir="ltr">{e.target ?? ""}</span>
            </td>
            <td>
              <code dir="ltr">{JSON.stringify(e.changes)}</code>
            </td>
          </tr>
        )}
        empty={t("staffAdmin.noEntries")}
        loaded={!!page}
      />
      <CursorPager
        class="audit-pages"
        label={t("staffAdmin.pages")}
        newer={t("staffAdmin.newer")}
        older={t("staffAdmin.older")}
        pages={pages}
      />
    </>
  );
}
