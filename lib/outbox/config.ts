/**
 * The mail settings (`SMTP_URL`, `MAIL_FROM`, `OUTBOX_WORKER`), read for `lib/app/config.ts`: the outbox's transport
 * (`lib/outbox/smtp.ts`). A group of their own: production requires both, and without `SMTP_URL`
 * in development nothing is sent (messages stay in the outbox, shown at `/dev/mail`).
 *
 * @module
 */
import { bool, ConfigError, type Env } from "@/lib/core/config_values.ts";

/** Where and as whom the outbox sends. */
export interface MailSettings {
  /**
   * The SMTP server, `smtp://` (STARTTLS when offered) or `smtps://` (TLS from the start), with
   * user and password in the URL; unset: no transport (development only).
   */
  smtpUrl?: string;
  /** The sender, `donations@museum.org` or `Museum donations <donations@museum.org>`. */
  from: string;
  /**
   * Where the outbox's sender runs (`OUTBOX_WORKER`; `lib/app/mail_sender_thread.ts`): `auto` (unset)
   * on a thread of its own on PostgreSQL, on the event loop on Deno KV; `on` on a thread of its own
   * wherever the store can be opened twice (a KV file too); `off` always on the event loop.
   */
  senderWorker: "auto" | "on" | "off";
}

/** The sender used in development when `MAIL_FROM` is unset. */
export const DEVELOPMENT_FROM = "Museum donations <donations@localhost>";

/** `address` or `Name <address>`: one address, no line breaks (it becomes a header). */
const FROM = /^(?:[^<>\r\n"]+ <[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

/** Reads the mail settings; `production` requires both. */
export function readMail(env: Env, production: boolean): MailSettings {
  const raw = env.SMTP_URL?.trim() || "";
  let smtpUrl: string | undefined;
  if (raw !== "") {
    let url: URL | null = null;
    try {
      url = new URL(raw);
    } catch { /* reported below */ }
    if (!url || (url.protocol !== "smtp:" && url.protocol !== "smtps:") || url.hostname === "") {
      throw new ConfigError(
        "SMTP_URL",
        "must be smtp://user:password@host:587 or smtps://user:password@host:465 (got an address that is not)",
      );
    }
    smtpUrl = raw;
  } else if (production) {
    throw new ConfigError(
      "SMTP_URL",
      "is required when DENO_ENV=production (e.g. smtps://user:password@smtp.museum.org:465): receipts and cancel links are sent by email",
    );
  }
  const from = env.MAIL_FROM?.trim() || "";
  if (from === "" && production) {
    throw new ConfigError(
      "MAIL_FROM",
      'is required when DENO_ENV=production (e.g. "Museum donations <donations@museum.org>")',
    );
  }
  if (from !== "" && !FROM.test(from)) {
    throw new ConfigError(
      "MAIL_FROM",
      `must be an address or "Name <address>" (got ${JSON.stringify(from)})`,
    );
  }
  return { smtpUrl, from: from || DEVELOPMENT_FROM, senderWorker: senderWorker(env) };
}

/**
 * The address of a sender setting (`MAIL_FROM`): what the donor portal gives donors to write to.
 *
 * @example
 * ```ts
 * mailAddress("Museum donations <donations@museum.org>"); // "donations@museum.org"
 * ```
 */
export function mailAddress(from: string): string {
  const open = from.lastIndexOf("<");
  return open >= 0 && from.endsWith(">") ? from.slice(open + 1, -1) : from;
}

/** `OUTBOX_WORKER`: unset is `auto`; otherwise a yes or a no (`bool`'s words). */
function senderWorker(env: Env): MailSettings["senderWorker"] {
  if (!env.OUTBOX_WORKER?.trim()) return "auto";
  return bool(env, "OUTBOX_WORKER", true) ? "on" : "off";
}
