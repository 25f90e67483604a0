import { useState } from "preact/hooks";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { CursorPager, useCursorPages } from "./CursorPager.tsx";
import { DataTable } from "./DataTable.tsx";
import type { ApiClient } from "@/islands/shared/admin_api.ts";
import { useDates } from "@/islands/shared/dates.tsx";
import { messageText, type Translate } from "@/islands/shared/texts.ts";
import { isDay } from "@/lib/shared/calendar_day.ts";
import { FilterNotice, useQueryParam } from "./list_filter.tsx";

/** A message as `GET /api/outbox` lists it (`lib/outbox/outbox_view.ts`): no content, no recipient id. */
export interface OutboxItem {
  id: string;
  kind: string;
  recipient: "donor" | "admins";
  language: string;
  state: "queued" | "sent" | "skipped" | "failed";
  attempts: number;
  lastError: string | null;
  createdAt: string;
  settledAt: string | null;
  nextAttemptAt: string | null;
}

const BADGES: Record<OutboxItem["state"], string> = {
  queued: "badge",
  sent: "badge badge-success",
  skipped: "badge",
  failed: "badge badge-error",
};

/**
 * The back office's outgoing email (issue 14): the outbox's messages, newest first, a page at a
 * time, with their state (queued with its next attempt, sent, skipped, failed with the reason) and
 * attempts. 'Older' follows the API's cursor; 'Newer' goes back along the cursors seen
 * (`CursorPager.tsx`); 'Refresh' reloads the page on screen. Loads once `ready`. With
 * `?failingSince=YYYY-MM-DD` in the page's query (the overview's link), only the messages that failed
 * or wait for a retry since that museum day.
 */
export function OutboxMessages(
  props: { api: ApiClient; t: Translate; ready: boolean; search?: string },
) {
  const { api, t, ready } = props;
  const dates = useDates();
  const [notice, setNotice] = useState("");
  // `?failingSince=YYYY-MM-DD` (the overview's link): only the messages in trouble since that day.
  const asked = useQueryParam(props.search, "failingSince");
  const since = asked && isDay(asked) ? asked : null;
  const pages = useCursorPages(
    (cursor) => {
      setNotice("");
      const params = new URLSearchParams();
      if (cursor) params.set("cursor", cursor);
      if (since) params.set("failingSince", since);
      const query = params.size > 0 ? `?${params}` : "";
      return api.request<{ data: OutboxItem[]; nextCursor: string | null }>(`/api/outbox${query}`);
    },
    ready && asked !== undefined,
    (error) => setNotice(t("transactions.errorPrefix") + messageText(t, listFailure(error))),
  );
  const page = pages.page;
  const time = (iso: string | null) => dates.dateTime(iso) ?? t("common.notAvailable");
  const label = (group: string, key: string) => {
    const name = `backofficeMail.${group}.${key}`;
    const text = t(name);
    return text === name ? key : text;
  };

  return (
    <section class="outbox" aria-labelledby="outbox-title" data-loaded={page ? "" : undefined}>
      <div class="history-head">
        <h2 id="outbox-title">{t("backofficeMail.outboxTitle")}</h2>
        <button type="button" class="button button-outline" disabled={!ready} onClick={pages.reload}>
          {t("backofficeMail.refresh")}
        </button>
      </div>
      <p>{t("backofficeMail.outboxIntro")}</p>
      {since && (
        <FilterNotice
          t={t}
          text={t("overview.filter.emailFailing", { since: dates.day(since) ?? since })}
        />
      )}
      <p class="outbox-notice" role="status">{notice}</p>
      <DataTable
        id="outbox-caption"
        class="outbox-table"
        caption={t("backofficeMail.outboxTitle")}
        columns={[
          "created",
          "kind",
          "recipient",
          "language",
          "state",
          "attempts",
          "lastError",
          "settled",
          "next",
        ].map((c) => t(`backofficeMail.columns.${c}`))}
        rows={page?.data}
        row={(m) => (
          <tr key={m.id}>
            <th scope="row">
              <time dateTime={m.createdAt}>{time(m.createdAt)}</time>
            </th>
            <td>{label("kinds", m.kind)}</td>
            <td>{label("recipients", m.recipient)}</td>
            <td>
              <span dir="ltr">{m.language}</span>
            </td>
            <td>
              <span class={BADGES[m.state]}>{label("states", m.state)}</span>
            </td>
            <td>{m.attempts}</td>
            <td class="tx-reason">
              <span dir="auto">{m.lastError ?? t("common.notAvailable")}</span>
            </td>
            <td>{time(m.settledAt)}</td>
            <td>{time(m.nextAttemptAt)}</td>
          </tr>
        )}
        empty={t("backofficeMail.none")}
      />
      <CursorPager
        class="outbox-pages"
        label={t("backofficeMail.pages")}
        newer={t("backofficeMail.newer")}
        older={t("backofficeMail.older")}
        pages={pages}
      />
    </section>
  );
}
