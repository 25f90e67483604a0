import { useState } from "preact/hooks";
import type { MemberPage, MemberRow, MembershipState } from "@/lib/shared/memberships.ts";
import { MEMBERSHIP_STATES } from "@/lib/shared/memberships.ts";
import { AdminShell, type SectionView } from "@/islands/admin/AdminShell.tsx";
import { Address, DataTable } from "@/islands/admin/DataTable.tsx";
import { ShowMore, useMoreRows } from "@/islands/admin/ShowMore.tsx";
import { saveDownload } from "@/islands/admin/download.ts";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import { messageText } from "@/islands/shared/texts.ts";

/** The list's filters as the page's query has them (a GET form of this page sets them). */
export interface MemberFilters {
  state: MembershipState | null;
  level: number | null;
  /** "Ending within 30 days". */
  expiring: boolean;
  search: string;
}

/** The page's language, zone, texts, the museum's levels, and what its query asks for. */
export interface AdminMembersProps {
  lang: string;
  /** The museum's time zone (`config.museumTimeZone`). */
  timeZone: string;
  texts: Record<string, string>;
  /** The museum's levels (id and name in the page's language), for the level filter. */
  levels: { id: number; name: string }[];
  filters: MemberFilters;
}

/** How many days "ending soon" looks ahead. */
const EXPIRING_DAYS = 30;

/**
 * The Members section (issue 27, item 8), `/{lang}/admin/members` (owners, admins, finance): the
 * members list (filtered by state, level and ending within 30 days, searched by number, address or
 * name, a CSV of what it shows); a member's page (`?number=`) is `AdminMember.tsx`. The filters
 * are a GET form of this page, so a filtered list is a link; rows load from `GET /api/memberships`
 * with the admin's token once the shell has confirmed the admin, more rows on "Show more".
 */
export default function AdminMembers(props: AdminMembersProps) {
  return (
    <AdminShell lang={props.lang} timeZone={props.timeZone} section="members" texts={props.texts}>
      {(view) => <MemberList view={view} levels={props.levels} filters={props.filters} />}
    </AdminShell>
  );
}

/** The API query of `filters` (without the page's cursor). */
export function memberQuery(filters: MemberFilters, lang: string): string {
  const q = new URLSearchParams({ lang });
  if (filters.state) q.set("state", filters.state);
  if (filters.level) q.set("level", String(filters.level));
  if (filters.expiring) q.set("expiring", String(EXPIRING_DAYS));
  if (filters.search.trim()) q.set("search", filters.search.trim());
  return q.toString();
}

function MemberList(
  props: { view: SectionView; levels: AdminMembersProps["levels"]; filters: MemberFilters },
) {
  const { api, t, lang, ready } = props.view;
  const { filters } = props;
  const dates = useDates();
  const [exportError, setExportError] = useState<string | null>(null);
  const query = memberQuery(filters, lang);

  const load = useMoreRows<MemberRow>(
    (cursor) =>
      api.request<MemberPage>(
        `/api/memberships?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      ),
    ready,
    (error) => t("transactions.errorPrefix") + messageText(t, listFailure(error)),
  );

  const download = async () => {
    setExportError(null);
    try {
      await saveDownload(await api.response(`/api/memberships/export?${query}`), "members.csv");
    } catch (error) {
      setExportError(t("transactions.errorPrefix") + messageText(t, listFailure(error)));
    }
  };

  return (
    <>
      <p>{t("membersAdmin.intro")}</p>
      <form
        class="members-filters"
        method="get"
        action={`/${lang}/admin/members`}
        aria-label={t("membersAdmin.filtersLabel")}
      >
        <div class="field">
          <label for="members-state">{t("membersAdmin.state")}</label>
          <select id="members-state" name="state">
            <option value="">{t("membersAdmin.stateAll")}</option>
            {MEMBERSHIP_STATES.map((s) => (
              <option key={s} value={s} selected={filters.state === s}>
                {t(`membersAdmin.states.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="members-level">{t("membersAdmin.level")}</label>
          <select id="members-level" name="level">
            <option value="">{t("membersAdmin.levelAll")}</option>
            {props.levels.map((l) => (
              <option key={l.id} value={l.id} selected={filters.level === l.id}>{l.name}</option>
            ))}
          </select>
        </div>
        <label class="members-expiring">
          <input type="checkbox" name="expiring" value="30" checked={filters.expiring} />
          {t("membersAdmin.expiring")}
        </label>
        <div class="field members-search">
          <label for="members-search">{t("membersAdmin.search")}</label>
          <input
            id="members-search"
            name="search"
            type="search"
            maxLength={320}
            autocomplete="off"
            placeholder={t("membersAdmin.searchHint")}
            value={filters.search}
          />
        </div>
        <button type="submit" class="button button-primary">{t("membersAdmin.apply")}</button>
        <button type="button" class="button button-outline" onClick={download} disabled={!ready}>
          {t("membersAdmin.download")}
        </button>
      </form>
      {exportError && <p class="form-alert" role="alert">{exportError}</p>}
      <div aria-live="polite" aria-busy={load.loading ? "true" : "false"}>
        <DataTable
          id="members-caption"
          class="members-table"
          caption={t("membersAdmin.caption")}
          columns={["number", "name", "email", "level", "state", "validUntil"].map((c) =>
            t(`membersAdmin.columns.${c}`)
          )}
          rows={ready && !(load.loading && load.rows.length === 0) ? load.rows : null}
          loaded={ready && !load.loading}
          empty={t("membersAdmin.empty")}
          row={(r) => (
            <tr key={r.number}>
              <td>
                <a
                  href={`/${lang}/admin/members?number=${encodeURIComponent(r.number)}`}
                  aria-label={t("membersAdmin.open", { number: r.number })}
                  class="member-number"
                >
                  {r.number}
                </a>
              </td>
              <td>{r.name}</td>
              <td>
                <bdi>
                  <Address email={r.email} />
                </bdi>
              </td>
              <td>{r.levelName}</td>
              <td>
                <span class={`member-state member-state-${r.state}`}>
                  {t(`membersAdmin.states.${r.state}`)}
                </span>
              </td>
              <td>{dates.date(r.end)}</td>
            </tr>
          )}
        />
        <ShowMore list={load} loading={t("membersAdmin.loading")} more={t("membersAdmin.more")} />
      </div>
    </>
  );
}
