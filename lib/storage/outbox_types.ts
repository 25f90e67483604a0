/**
 * The storage contract for the outbox: messages to people, written in the same atomic step as the
 * event that causes them (see `messages` on `transactions.record`, `subscriptions.cancelForDonor`
 * and `admins.create`), then claimed, sent and settled by the sender (`lib/outbox/outbox_sender.ts`).
 * Types only; part of the {@link Store} in `types.ts`, which re-exports them.
 *
 * A message's life: `queued` (due at `dueAt`) → claimed by one holder for a lease (its `dueAt`
 * moves to the lease's end and `attempts` grows by one, so a holder that dies leaves it due again
 * when the lease ends) → `sent`, `skipped` (nothing to send, e.g. the donor was erased) or
 * `failed` (for good), or back to `queued` with a later `dueAt` (a retry after a backoff).
 *
 * @module
 */

import type { MessageInput, MessageKind } from "./message_types.ts";
import type { WithAudit } from "./audit_types.ts";

export type { MessageInput, MessageKind };

/** Where a message is in its life. */
export type OutboxState = "queued" | "sent" | "skipped" | "failed";

/** A message as the outbox keeps it: the intent (`MessageInput`) and its delivery's state. */
export interface OutboxMessage extends MessageInput {
  /** When it was enqueued (its cause's time), ISO 8601. */
  createdAt: string;
  state: OutboxState;
  /** How many times it was claimed for sending; each claim is one attempt. */
  attempts: number;
  /**
   * While `queued`: when it may next be claimed (when a claim's lease ends, or a retry's time).
   * Null once settled.
   */
  dueAt: string | null;
  /** The holder of the latest claim, or null when it was never claimed. */
  claimedBy: string | null;
  /** Why the last attempt failed, or why it was skipped; null otherwise. */
  lastError: string | null;
  /** When it was sent, skipped or failed for good (ISO 8601); null while queued. */
  settledAt: string | null;
}

/** The claim a settle call must hold: the message's key and the holder and attempt of its claim. */
export type OutboxClaim = Pick<OutboxMessage, "key" | "claimedBy" | "attempts">;

/** How an attempt ended, as {@link OutboxRepository.settle} records it. */
export type OutboxOutcome =
  | { state: "sent"; at: string }
  | { state: "skipped"; at: string; reason: string }
  | { state: "failed"; at: string; reason: string }
  | { state: "queued"; retryAt: string; reason: string };

/** The most messages one cause may enqueue with it (Deno KV reads them with the cause's own keys). */
export const MAX_MESSAGES_PER_CAUSE = 5;

/** What a cause's storage call takes to enqueue its messages in its own atomic step. */
export interface WithMessages {
  /** At most {@link MAX_MESSAGES_PER_CAUSE}; a key already stored is left as it is. */
  messages?: readonly MessageInput[];
}

export interface OutboxRepository {
  /**
   * Stores each message whose key is new, queued and due at `at` (ISO), and answers how many were
   * new: a key stored before (in any state) is left untouched, so enqueueing is idempotent. For
   * messages with no stored cause (a manage link asked for, the yearly statement); messages caused
   * by a stored event go with that event's own call. At most 100 per call (RangeError). With
   * `audit` (a staff action that only sends, e.g. a receipt resent), at most 10 messages, and the
   * entries are written in the same atomic step, only when at least one message was new.
   */
  enqueue(messages: readonly MessageInput[], at: string, options?: WithAudit): Promise<number>;
  /**
   * Claims up to `limit` (1..100) queued messages due at `now` (ISO) for `holder`, oldest due
   * first: each one's `attempts` grows by one, `claimedBy` becomes `holder` and `dueAt` moves to
   * `now + leaseMs` (the lease: if the holder never settles it, it is due again then). Atomic across
   * instances: a message is answered to one claimer per lease.
   */
  claim(holder: string, now: string, leaseMs: number, limit: number): Promise<OutboxMessage[]>;
  /**
   * Records how an attempt ended and answers whether it was recorded. `sent` is recorded while the
   * message is queued, whoever claimed it (it was delivered: no later claim may send it again);
   * the other outcomes only while `claim` is still the latest claim (same holder and attempts) and
   * the message queued, so a holder whose lease ran out cannot overwrite a newer claim's result.
   */
  settle(claim: OutboxClaim, outcome: OutboxOutcome): Promise<boolean>;
  /** One message by key, or null. */
  get(key: string): Promise<OutboxMessage | null>;
  /**
   * The most recent messages, newest first (by `createdAt`, then key, descending), at most `limit`
   * (1..500); with `before`, only those after it in that order (pass the last of the previous page).
   */
  listRecent(
    limit: number,
    before?: Pick<OutboxMessage, "createdAt" | "key"> | null,
  ): Promise<OutboxMessage[]>;
  /**
   * Messages enqueued at or after `since` (ISO) whose delivery is in trouble: `failed` for good, or
   * `queued` for another attempt after a failed one (with a `lastError`). Newest first (by
   * `createdAt`, then key, descending, as `listRecent`), at most `limit` (1..500); with `before`,
   * only those after it in that order. The back office's "emails failing" (issue 26). Reads the
   * recent messages' index from `since` on, so the work follows the messages enqueued since then.
   */
  listFailing(
    since: string,
    limit: number,
    before?: Pick<OutboxMessage, "createdAt" | "key"> | null,
  ): Promise<OutboxMessage[]>;
  /**
   * The messages to these donors (1..100 ids; admins' messages never), newest first (by
   * `createdAt`, then key, descending), at most `limit` (1..500): what the donor portal's data
   * export lists (issue 15). Reads an index by recipient, so it costs work in proportion to those
   * donors' messages.
   */
  listByDonors(donorIds: readonly string[], limit: number): Promise<OutboxMessage[]>;
}
