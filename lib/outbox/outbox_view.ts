/**
 * The outbox as the back office lists it: the recent messages with their delivery's state, newest
 * first, a page at a time. Never the message's content nor whom it is to: a message's key and data
 * name donor ids (`cancelled:{donorId}:…`), and a donor id opens the spec's cancel page, so an item
 * carries only the kind of recipient, and an error's email addresses are masked. The paging cursor
 * is the last message's position encrypted with a key derived from `APP_SECRET`, so it names no key
 * either and cannot be forged.
 *
 * @module
 */

import { deriveKey } from "@/lib/staff/mod.ts";
import { DomainError } from "@/lib/core/errors.ts";
import type { MessageKind, OutboxMessage, OutboxState, Store } from "@/lib/storage/types.ts";

/** One message as the back office lists it. */
export interface OutboxItem {
  /** A stable reference (a hash of the message's key): the same message always has the same id. */
  id: string;
  kind: MessageKind;
  recipient: "donor" | "admins";
  language: string;
  state: OutboxState;
  /** Claims so far (each one an attempt to send). */
  attempts: number;
  /** Why the last attempt failed or the message was skipped, email addresses masked; or null. */
  lastError: string | null;
  /** ISO 8601. */
  createdAt: string;
  /** When it was sent, skipped or failed for good; null while queued. */
  settledAt: string | null;
  /** While queued: when it is next due (a retry's time, or a claim's lease end); null once settled. */
  nextAttemptAt: string | null;
}

/** A page of the list and the cursor of the next (older) one, or null at the end. */
export interface OutboxPage {
  data: OutboxItem[];
  nextCursor: string | null;
}

/** The page size when none is asked for, and the largest one. */
export const OUTBOX_PAGE = 20;
export const OUTBOX_MAX_PAGE = 100;

/** The `cursor` is not one this server wrote (tampered, truncated, or from another APP_SECRET). */
export class OutboxCursorError extends DomainError {
  override readonly kind = "invalid";
  constructor() {
    super("cursor is not valid: use the nextCursor of the previous page");
  }
}

/** `550 <ada@example.org> mailbox unavailable` → `550 ***@*** mailbox unavailable`: any word with an `@`. */
export function maskAddresses(text: string): string {
  return text.split(/(\s+)/).map((word) => word.includes("@") ? "***@***" : word).join("");
}

async function cursorKey(appSecret: string): Promise<CryptoKey> {
  const raw = await deriveKey(appSecret, "outbox-cursor/v1");
  return await crypto.subtle.importKey("raw", raw.slice(), "AES-GCM", false, ["encrypt", "decrypt"]);
}

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]{1,2000}$/.test(text)) return null;
  try {
    return Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function writeCursor(key: CryptoKey, at: Pick<OutboxMessage, "createdAt" | "key">): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify([at.createdAt, at.key]));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, plain));
  const out = new Uint8Array(iv.length + sealed.length);
  out.set(iv);
  out.set(sealed, iv.length);
  return toBase64Url(out);
}

async function readCursor(key: CryptoKey, cursor: string): Promise<Pick<OutboxMessage, "createdAt" | "key">> {
  const bytes = fromBase64Url(cursor);
  if (!bytes || bytes.length < 12 + 16) throw new OutboxCursorError();
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.slice(0, 12) },
      key,
      bytes.slice(12),
    );
    const [createdAt, messageKey] = JSON.parse(new TextDecoder().decode(plain));
    if (typeof createdAt !== "string" || typeof messageKey !== "string") throw new OutboxCursorError();
    return { createdAt, key: messageKey };
  } catch {
    throw new OutboxCursorError();
  }
}

async function idOf(key: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)));
  return [...hash.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A stored message as the back office may see it. */
export async function outboxItem(m: OutboxMessage): Promise<OutboxItem> {
  return {
    id: await idOf(m.key),
    kind: m.kind,
    recipient: "admins" in m.to ? "admins" : "donor",
    language: m.language,
    state: m.state,
    attempts: m.attempts,
    lastError: m.lastError === null ? null : maskAddresses(m.lastError),
    createdAt: m.createdAt,
    settledAt: m.settledAt,
    nextAttemptAt: m.state === "queued" ? m.dueAt : null,
  };
}

/**
 * One page of the outbox, newest first: `cursor` is the previous page's `nextCursor` (null for the
 * first page; a cursor follows the same filter). Throws {@link OutboxCursorError} for a cursor this server did not write.
 *
 * @example
 * ```ts
 * const first = await outboxPage(store, config.appSecret, null);
 * const second = first.nextCursor ? await outboxPage(store, config.appSecret, first.nextCursor) : null;
 * ```
 */
export async function outboxPage(
  store: Store,
  appSecret: string,
  cursor: string | null,
  limit = OUTBOX_PAGE,
  filter: { failingSince?: string } = {},
): Promise<OutboxPage> {
  const key = await cursorKey(appSecret);
  const before = cursor ? await readCursor(key, cursor) : null;
  // One more than the page: whether there is a next page, without an empty last one. With
  // `failingSince` (an instant), only the messages in trouble enqueued since then (issue 26).
  const messages = filter.failingSince
    ? await store.outbox.listFailing(filter.failingSince, limit + 1, before)
    : await store.outbox.listRecent(limit + 1, before);
  const page = messages.slice(0, limit);
  return {
    data: await Promise.all(page.map(outboxItem)),
    nextCursor: messages.length > limit ? await writeCursor(key, page.at(-1)!) : null,
  };
}
