import { type Handlers, Head, type PageProps } from "@/lib/framework/mod.ts";
import {
  cursorOf,
  DEV_MAILBOX_PAGE,
  devMailboxEnabled,
  type OpenedMessage,
  openMessage,
  parseCursor,
} from "@/lib/outbox/dev_mailbox.ts";
import type { TFunction } from "@/lib/core/i18n.ts";
import type { AppState } from "@/lib/app/state.ts";
import type { OutboxMessage } from "@/lib/storage/types.ts";

/** What the page shows: the list (newest first, a page at a time), one message, or none. */
type Data =
  | { view: "list"; messages: OutboxMessage[]; older: string | null }
  | { view: "message"; opened: OpenedMessage }
  | { view: "unknown" };

/**
 * `GET /dev/mail` (development only; 404 in production): the outbox's recent messages, and with
 * `?key=`, one message as its recipient would see it (rendered by the sender's own renderer).
 */
export const handler: Handlers<Data, AppState> = {
  async GET(_req, ctx) {
    const { config, store, mail } = ctx.state.services;
    if (!devMailboxEnabled(config)) return ctx.renderNotFound();
    const key = ctx.url.searchParams.get("key");
    if (key !== null) {
      const opened = await openMessage(store, mail.render, key);
      return opened
        ? ctx.render({ view: "message", opened })
        : ctx.render({ view: "unknown" }, { status: 404 });
    }
    const messages = await store.outbox.listRecent(
      DEV_MAILBOX_PAGE,
      parseCursor(ctx.url.searchParams.get("before")),
    );
    const older = messages.length === DEV_MAILBOX_PAGE ? cursorOf(messages.at(-1)!) : null;
    return ctx.render({ view: "list", messages, older });
  },
};

const recipientOf = (t: TFunction, m: OutboxMessage) =>
  "admins" in m.to ? t("devMailbox.admins") : t("devMailbox.donor", { id: m.to.donorId });

const viewHref = (key: string) => `/dev/mail?key=${encodeURIComponent(key)}`;

function List({ t, data }: { t: TFunction; data: Extract<Data, { view: "list" }> }) {
  if (data.messages.length === 0) return <p>{t("devMailbox.empty")}</p>;
  return (
    <>
      <table class="dev-mailbox">
        <thead>
          <tr>
            {["created", "kind", "recipient", "language", "state", "attempts", "error"].map((column) => (
              <th scope="col">{t(`devMailbox.${column}`)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.messages.map((m) => (
            <tr>
              <td>
                <a href={viewHref(m.key)}>{m.createdAt}</a>
              </td>
              <td>{m.kind}</td>
              <td>{recipientOf(t, m)}</td>
              <td>{m.language}</td>
              <td>{t(`devMailbox.states.${m.state}`)}</td>
              <td>{m.attempts}</td>
              <td>{m.lastError ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {data.older && (
        <a href={`/dev/mail?before=${encodeURIComponent(data.older)}`}>{t("devMailbox.older")}</a>
      )}
    </>
  );
}

function Message({ t, opened }: { t: TFunction; opened: OpenedMessage }) {
  const { message, rendered, renderError } = opened;
  const key = encodeURIComponent(message.key);
  return (
    <>
      <p>
        <a href="/dev/mail">{t("devMailbox.back")}</a>
      </p>
      <dl>
        <dt>{t("devMailbox.state")}</dt>
        <dd>{t(`devMailbox.states.${message.state}`)} ({t("devMailbox.attempts")}: {message.attempts})</dd>
        {message.lastError && <dt>{t("devMailbox.error")}</dt>}
        {message.lastError && <dd>{message.lastError}</dd>}
      </dl>
      {renderError && <p role="alert">{t("devMailbox.renderFailed", { error: renderError })}</p>}
      {rendered === null && !renderError && <p>{t("devMailbox.nothingToSend")}</p>}
      {rendered && (
        <section lang={rendered.language} dir={rendered.dir}>
          <dl>
            <dt>{t("devMailbox.recipient")}</dt>
            <dd>{rendered.to.join(", ")}</dd>
            <dt>{t("devMailbox.subject")}</dt>
            <dd>{rendered.subject}</dd>
          </dl>
          <h2>{t("devMailbox.html")}</h2>
          <iframe
            src={`/dev/mail/html?key=${key}`}
            sandbox=""
            title={rendered.subject}
            width="100%"
            height="600"
          />
          <h2>{t("devMailbox.text")}</h2>
          <pre>{rendered.text}</pre>
          <h2>{t("devMailbox.attachments")}</h2>
          {rendered.attachments.length === 0 ? <p>{t("devMailbox.noAttachments")}</p> : (
            <ul>
              {rendered.attachments.map((a, n) => (
                <li>
                  <a href={`/dev/mail/attachment?key=${key}&n=${n}`} download={a.filename}>{a.filename}</a>
                  {" "}
                  ({a.contentType}, {t("devMailbox.bytes", { size: a.content.length })})
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <h2>{t("devMailbox.stored")}</h2>
      <pre dir="ltr">{JSON.stringify({ key: message.key, kind: message.kind, to: message.to, language: message.language, data: message.data, createdAt: message.createdAt }, null, 2)}</pre>
    </>
  );
}

export default function DevMailbox({ data, state }: PageProps<Data, AppState>) {
  const { t } = state;
  return (
    <main id="main" class="dev-mailbox">
      <Head title={t("devMailbox.title")} />
      <h1>{t("devMailbox.title")}</h1>
      <p>{t("devMailbox.intro")}</p>
      {data.view === "list" && <List t={t} data={data} />}
      {data.view === "message" && <Message t={t} opened={data.opened} />}
      {data.view === "unknown" && <p role="alert">{t("devMailbox.notFound")}</p>}
    </main>
  );
}
