/**
 * What every request handler can reach: the app's services and the per-request state that
 * middlewares fill (language, translations, flags, nonce, request id).
 *
 * @module
 */
import type { TFunction } from "i18next";
import type { ApiDocs } from "./api_docs.ts";
import type { Config } from "./config.ts";
import type { Flags } from "@/lib/settings/flags.ts";
import type { MuseumSettings } from "@/lib/shared/museum.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { Logger } from "@/lib/core/log.ts";
import type { MessageInput } from "@/lib/storage/message_types.ts";
import type { ReceiptPdfPool } from "@/lib/receipts/pdf_pool.ts";
import type { MemberCardPool } from "@/lib/memberships/mod.ts";
import type { PasswordPool } from "@/lib/staff/password_pool.ts";
import type { RenderMessage } from "@/lib/outbox/outbox_sender.ts";
import type { MailSender } from "./mail_sender_thread.ts";
import type { ProviderFactory } from "@/lib/providers/provider.ts";
import type { Admin, Store } from "@/lib/storage/types.ts";

/** Long-lived services, created once at start. */
export interface Services {
  config: Config;
  store: Store;
  log: Logger;
  /** Key of admin access tokens, derived from APP_SECRET. */
  accessKey: Uint8Array;
  /** The payment provider for a public origin. */
  providerFor: ProviderFactory;
  /** Where admin passwords are hashed: workers off the event loop; closed at shutdown. */
  passwords: PasswordPool;
  /** Where receipt PDFs are drawn: a worker off the event loop; closed at shutdown. */
  receiptPdfs: ReceiptPdfPool;
  /** Where member cards are drawn (PDF and PNG): a worker off the event loop; closed at shutdown. */
  memberCards: MemberCardPool;
  /**
   * The outbox: how a stored message is rendered (for the sender and the dev mailbox), and this
   * instance's sender (null without `SMTP_URL`), on a thread of its own where it can; stopped at
   * shutdown.
   */
  mail: { render: RenderMessage; sender: MailSender | null };
  /**
   * Stores a message in the outbox on its own (a cause that is nothing but the request, e.g. a
   * fresh manage link asked for on the cancel page). Wired to the outbox by `createServices`.
   */
  enqueueMessage: (message: MessageInput) => Promise<void>;
}

/** Per-request state. */
export interface AppState {
  services: Services;
  /** The page language: the path's, or detected for pages outside `/{lang}/`. */
  lang: Lang;
  /** The answer's `Content-Language`, once a page's language is known (the `[lang]` middleware). */
  contentLanguage?: Lang;
  dir: "ltr" | "rtl";
  t: TFunction;
  /** Feature flags, read by the `[lang]` middleware for pages. */
  flags: Flags;
  /**
   * The museum's settings (its name, its levels), read by the `[lang]` middleware for pages, a
   * second late at most; absent outside `/{lang}/`.
   */
  museum?: MuseumSettings;
  requestId: string;
  /** This response's CSP nonce. */
  nonce: string;
  /** A logger carrying the request id. */
  log: Logger;
  /** The API's OpenAPI document, made by the app from its routes and built on first use. */
  apiDocs: ApiDocs;
  /** The signed-in admin, under the admin API (set by its `_middleware.ts`, `lib/http/admin_auth.ts`). */
  admin?: Admin;
}
