/**
 * The outbox's records, the same on both backends: a message as enqueued (checked, canonical), and
 * what a claim and a settle make of it. Deno KV applies these to the record it read; PostgreSQL's
 * SQL (`postgres/outbox.ts`) does the same in its statements, and the contract suite checks that
 * both answer the same.
 *
 * @module
 */

import type { MessageKind } from "./message_types.ts";
import { isLang, LANGUAGES } from "@/lib/shared/languages.ts";
import { checkInteger, isoInstant } from "./records.ts";
import type { MessageInput, OutboxClaim, OutboxMessage, OutboxOutcome } from "./outbox_types.ts";

/** Every message kind (the keys of `MessageData`), to refuse a kind no renderer knows. */
const KINDS: ReadonlySet<MessageKind> = new Set<MessageKind>([
  "receipt",
  "monthly-welcome",
  "charge-failed",
  "monthly-cancelled",
  "yearly-statement",
  "manage-link",
  "admin-pending",
  "sign-in-link",
  "monthly-changed",
  "card-updated",
  "refund",
  "membership-reminder",
  "membership-lapsed",
  "membership-winback",
  "membership-autorenew-notice",
  "membership-autorenew-failed",
  "membership",
  "member-card",
  "gift-membership-delivery",
]);

/** The longest key, and the largest `data` (UTF-8 JSON): ids and figures, never rendered text. */
const MAX_KEY_LENGTH = 200;
const MAX_DATA_BYTES = 4_000;
/** The longest failure reason kept (an SMTP answer can be long). */
export const MAX_REASON_LENGTH = 1_000;

/** A message input checked and copied to exactly the stored fields; throws RangeError when invalid. */
export function canonicalMessageInput(input: MessageInput): MessageInput {
  const { key, kind, to, language, data } = input;
  if (typeof key !== "string" || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new RangeError(`message key must be 1..${MAX_KEY_LENGTH} characters: ${JSON.stringify(key)}`);
  }
  if (!KINDS.has(kind)) throw new RangeError(`unknown message kind ${JSON.stringify(kind)}`);
  let recipient: MessageInput["to"];
  if (to && "donorId" in to && typeof to.donorId === "string" && to.donorId !== "") {
    recipient = { donorId: to.donorId };
  } else if (to && "admins" in to && to.admins === true) recipient = { admins: true };
  else throw new RangeError(`message ${key}: recipient must be { donorId } or { admins: true }`);
  if (!isLang(language)) {
    throw new RangeError(
      `message ${key}: language must be one of ${LANGUAGES.join(", ")}: ${JSON.stringify(language)}`,
    );
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    throw new RangeError(`message ${key}: data must be an object`);
  }
  const json = JSON.stringify(data);
  if (new TextEncoder().encode(json).length > MAX_DATA_BYTES) {
    throw new RangeError(`message ${key}: data is larger than ${MAX_DATA_BYTES} bytes`);
  }
  const notBefore = input.notBefore == null ? {} : { notBefore: isoInstant(input.notBefore, "notBefore") };
  return { key, kind, to: recipient, language, data: JSON.parse(json), ...notBefore };
}

/** The messages of one call, checked: at most `max`, no key twice. */
export function canonicalMessages(
  messages: readonly MessageInput[] | undefined,
  max: number,
): MessageInput[] {
  const list = (messages ?? []).map(canonicalMessageInput);
  if (list.length > max) throw new RangeError(`at most ${max} messages in one call: ${list.length}`);
  if (new Set(list.map((m) => m.key)).size !== list.length) {
    throw new RangeError("a message key is given twice in one call");
  }
  return list;
}

/** A message as first stored: queued, due at its cause's time `at`, or at its `notBefore` when later. */
export function queuedMessage(input: MessageInput, at: string): OutboxMessage {
  const { notBefore, ...stored } = input;
  return {
    ...stored,
    createdAt: at,
    state: "queued",
    attempts: 0,
    dueAt: notBefore !== undefined && notBefore > at ? notBefore : at,
    claimedBy: null,
    lastError: null,
    settledAt: null,
  };
}

/** Checks the arguments of `outbox.claim` and answers the lease's end (ISO). */
export function claimUntil(holder: string, now: string, leaseMs: number, limit: number): string {
  if (typeof holder !== "string" || holder === "") throw new RangeError("holder must be a non-empty string");
  checkInteger(leaseMs, "leaseMs", 1);
  checkInteger(limit, "limit", 1);
  if (limit > 100) throw new RangeError(`limit must be at most 100: ${limit}`);
  return new Date(Date.parse(isoInstant(now, "now")) + leaseMs).toISOString();
}

/** The outcome with its instants canonical and its reason bounded. */
export function canonicalOutcome(outcome: OutboxOutcome): OutboxOutcome {
  const reason = (text: string) => String(text).slice(0, MAX_REASON_LENGTH);
  switch (outcome.state) {
    case "sent":
      return { state: "sent", at: isoInstant(outcome.at, "at") };
    case "skipped":
    case "failed":
      return { state: outcome.state, at: isoInstant(outcome.at, "at"), reason: reason(outcome.reason) };
    case "queued":
      return {
        state: "queued",
        retryAt: isoInstant(outcome.retryAt, "retryAt"),
        reason: reason(outcome.reason),
      };
    default:
      throw new RangeError(`unknown outcome ${JSON.stringify((outcome as { state: unknown }).state)}`);
  }
}

/**
 * The message after `outcome`, or null when the outcome may not be recorded on it (see
 * `OutboxRepository.settle`): what Deno KV writes and PostgreSQL's `settle` statement does.
 */
export function settled(
  message: OutboxMessage,
  claim: OutboxClaim,
  outcome: OutboxOutcome,
): OutboxMessage | null {
  if (message.state !== "queued") return null;
  if (outcome.state === "sent") {
    return { ...message, state: "sent", dueAt: null, lastError: null, settledAt: outcome.at };
  }
  if (message.claimedBy !== claim.claimedBy || message.attempts !== claim.attempts) return null;
  if (outcome.state === "queued") return { ...message, dueAt: outcome.retryAt, lastError: outcome.reason };
  return { ...message, state: outcome.state, dueAt: null, lastError: outcome.reason, settledAt: outcome.at };
}

/** Claimed messages in one order on both backends: oldest first, then by key (byte order). */
export const byAge = (a: OutboxMessage, b: OutboxMessage): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

/** Newest first: `createdAt` descending, then the key descending (as KV and `collate "C"` order them). */
export function newestMessageFirst(a: OutboxMessage, b: OutboxMessage): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.key < b.key ? 1 : a.key > b.key ? -1 : 0;
}

/** The donor a message goes to, or null (the admins' messages). */
export function recipientDonorId(message: Pick<MessageInput, "to">): string | null {
  return "donorId" in message.to ? message.to.donorId : null;
}

/**
 * Whether a message's delivery is in trouble (`outbox.listFailing`): failed for good, or waiting for
 * another attempt after a failed one. PostgreSQL keeps the same rule in SQL (`postgres/outbox.ts`).
 */
export const isFailing = (m: Pick<OutboxMessage, "state" | "lastError">): boolean =>
  m.state === "failed" || (m.state === "queued" && m.lastError !== null);

/** Checks `listRecent`'s and `listFailing`'s `limit`: 1..500. */
export function recentLimit(limit: number): number {
  checkInteger(limit, "limit", 1);
  if (limit > 500) throw new RangeError(`limit must be at most 500: ${limit}`);
  return limit;
}
