import { useEffect, useState } from "preact/hooks";
import { listFailure } from "@/islands/shared/account_forms.ts";
import { usDateTime } from "@/lib/shared/format.ts";
import type { ApiClient } from "@/islands/shared/admin_api.ts";
import { messageText, type Translate } from "@/islands/shared/texts.ts";

/** A message as `GET /api/outbox` lists it (`lib/mail/outbox_view.ts`): no content, no recipient id. */
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
 * attempts. 'Older' follows the API's cursor; 'Newer' goes back along the cursors seen; 'Refresh'
 * reloads the page on screen. Loads once `ready`.
 */
export function OutboxMessages(props: { api: ApiClient; t: Translate; ready: boolean }) {
  const { api, t, ready } = props;
  // The cursors of the pages before this one (the first page's is null) and this page's.
  const [trail, setTrail] = useState<(string | null)[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [page, setPage] = useState<{ data: OutboxItem[]; nextCursor: string | null } | null>(null);
  const [notice, setNotice] = useState("");

  const load = () => {
    setNotice("");
    const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
    api.request<typeof page>(`/api/outbox${query}`).then(setPage).catch((error) =>
      setNotice(t("transactions.errorPrefix") + messageText(t, listFailure(error)))
    );
  };
  useEffect(() => {
    if (ready) load();
  }, [ready, cursor]);

  const go = (next: string | null, back: boolean) => {
    setTrail(back ? trail.slice(0, -1) : [...trail, cursor]);
    setPage(null);
    setCursor(next);
  };
  const time = (iso: string | null) => usDateTime(iso) ?? t("common.notAvailable");
  const label = (group: string, key: string) => {
    const name = `backofficeMail.${group}.${key}`;
    const text = t(name);
    return text === name ? key : text;
  };

  return (
    <section class="outbox" aria-labelledby="outbox-title" data-loaded={page ? "" : undefined}>
      <div class="history-head">
        <h2 id="outbox-title">{t("backofficeMail.outboxTitle")}</h2>
        <button type="button" class="button button-outline" disabled={!ready} onClick={load}>
          {t("backofficeMail.refresh")}
        </button>
      </div>
      <p>{t("backofficeMail.outboxIntro")}</p>
      <p class="outbox-notice" role="status">{notice}</p>
      <div class="table-scroll" role="region" aria-labelledby="outbox-caption" tabIndex={0}>
        <table class="outbox-table">
          <caption id="outbox-caption">{t("backofficeMail.outboxTitle")}</caption>
          <thead>
            <tr>
              {[
                "created",
                "kind",
                "recipient",
                "language",
                "state",
                "attempts",
                "lastError",
                "settled",
                "next",
              ]
                .map((c) => <th scope="col" key={c}>{t(`backofficeMail.columns.${c}`)}</th>)}
            </tr>
          </thead>
          <tbody>
            {page?.data.length === 0 && (
              <tr>
                <td colSpan={9} class="tx-empty">{t("backofficeMail.none")}</td>
              </tr>
            )}
            {page?.data.map((m) => (
              <tr key={m.id}>
                <th scope="row">
                  <time dateTime={m.createdAt}>{time(m.createdAt)}</time>
                </th>
                <td>{label("kinds", m.kind)}</td>
                <td>{label("recipients", m.recipient)}</td>
                <td dir="ltr">{m.language}</td>
                <td>
                  <span class={BADGES[m.state]}>{label("states", m.state)}</span>
                </td>
                <td>{m.attempts}</td>
                <td class="tx-reason" dir="auto">{m.lastError ?? t("common.notAvailable")}</td>
                <td>{time(m.settledAt)}</td>
                <td>{time(m.nextAttemptAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav class="outbox-pages" aria-label={t("backofficeMail.pages")}>
        <button
          type="button"
          class="button button-outline"
          disabled={trail.length === 0}
          onClick={() => go(trail.at(-1) ?? null, true)}
        >
          {t("backofficeMail.newer")}
        </button>
        <button
          type="button"
          class="button button-outline"
          disabled={!page?.nextCursor}
          onClick={() => go(page!.nextCursor, false)}
        >
          {t("backofficeMail.older")}
        </button>
      </nav>
    </section>
  );
}
