/**
 * The development mailbox (`/dev/mail`, routes in `routes/dev/mail/`): what the routes need to
 * show the outbox as its recipients would see it, rendered with the same injected renderer the
 * sender uses. Never in production: every route answers 404 there ({@link devMailboxEnabled}).
 *
 * The rendered HTML is served as a document of its own (`/dev/mail/html`) under a policy that
 * lets it style itself and nothing else (no scripts, no requests, sandboxed), framed by the
 * message's page: an email's HTML is not ours to trust.
 *
 * @module
 */
import type { OutboxMessage, Store } from "@/lib/storage/types.ts";
import type { RenderedMessage } from "@/lib/storage/message_types.ts";
import type { RenderMessage } from "./outbox_sender.ts";

/** Messages per page of the list. */
export const DEV_MAILBOX_PAGE = 50;

/** Whether the dev mailbox answers at all: everywhere but production. */
export const devMailboxEnabled = (config: { env: string }): boolean => config.env !== "production";

/** A message and what its renderer makes of it. */
export interface OpenedMessage {
  message: OutboxMessage;
  /** null: nothing to send (or rendering failed: {@link renderError}). */
  rendered: RenderedMessage | null;
  /** Why rendering failed, when it did. */
  renderError: string | null;
}

/** The message `key`, rendered; null when no message has that key. */
export async function openMessage(
  store: Store,
  render: RenderMessage,
  key: string,
): Promise<OpenedMessage | null> {
  const message = await store.outbox.get(key);
  if (!message) return null;
  try {
    return { message, rendered: await render(message), renderError: null };
  } catch (error) {
    return {
      message,
      rendered: null,
      renderError: error instanceof Error ? error.message : String(error),
    };
  }
}

/** The list's paging cursor of `message` (`createdAt|key`), and back. */
export const cursorOf = (m: Pick<OutboxMessage, "createdAt" | "key">): string => `${m.createdAt}|${m.key}`;

/** The position a cursor names, or null when it is malformed (the list then starts at the newest). */
export function parseCursor(cursor: string | null): Pick<OutboxMessage, "createdAt" | "key"> | null {
  const at = cursor?.indexOf("|") ?? -1;
  if (!cursor || at < 0) return null;
  const createdAt = cursor.slice(0, at);
  return Number.isNaN(Date.parse(createdAt)) ? null : { createdAt, key: cursor.slice(at + 1) };
}

/**
 * The headers of an email's HTML served on its own: styles of its own only, images inline only,
 * no scripts, forms or requests, sandboxed, framed only by our pages.
 */
export function emailDocumentHeaders(requestId: string): Record<string, string> {
  return {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy":
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; form-action 'none'; " +
      "base-uri 'none'; frame-ancestors 'self'; sandbox",
    "x-frame-options": "SAMEORIGIN",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
    // The pipeline sets its own headers only on answers without the request's id: these are whole.
    "x-request-id": requestId,
  };
}

/** A `content-disposition` for a download named `filename` (any language: RFC 6266's `filename*`). */
export function attachmentDisposition(filename: string): string {
  return `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
