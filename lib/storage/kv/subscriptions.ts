/**
 * Monthly subscriptions on Deno KV.
 *
 * | key                                                  | value               | written by        |
 * |------------------------------------------------------|---------------------|-------------------|
 * | `["subscriptions", id]`                              | Subscription        | every write       |
 * | `["subscriptions_by_donor", donorId, createdAt, id]` | subscription id     | create            |
 * | `["subscriptions_due", dueAt, id]`                   | Subscription (copy) | every write       |
 * | `["subscriptions_cancel_reasons", reason]`           | Deno.KvU64 count    | a reason set/left |
 * | `["subscriptions_by_created", createdAt, id]`        | subscription id     | create            |
 * | `["subscriptions_by_cancelled", cancelledAt, id]`    | subscription id     | cancelling writes |
 *
 * `subscriptions_due` holds exactly the active subscriptions, under their due time
 * (`subscriptionDueAt`: the later of `nextPaymentDate` and `retryAt`), so `listDue(now)` is one
 * range read up to `now`, in the order answered, and `listRetrying(until)` one up to `until`,
 * keeping the gifts whose last charge failed (a retry is never more than a week ahead). Every write of a subscription deletes its old due
 * key and sets the new one in the same commit, checked against the record as read
 * (`updateIfActive` and `cancelForDonor` thus lose to, and re-read after, a racing write). Every
 * write bumps the record's `version`; `updateIfVersion` commits only over the version it was given
 * (a donor's change never lands over a charge's step it did not see), with its messages.
 *
 * `subscriptions_cancel_reasons` counts the subscriptions stored with each `cancelReason` (the back
 * office's "why donors cancelled"): a counter per reason, moved by `sum` in the same commit as the
 * write that sets or changes the reason, so `countCancelReasons` reads a handful of keys however
 * many subscriptions there are, and each cancel is counted once (a commit lost to a race adds
 * nothing). A `sum` of 2^64 - 1 is KV's wrapping subtraction of one.
 *
 * `subscriptions_by_created` and `subscriptions_by_cancelled` (issue 16, the accountant's reports:
 * `reports.ts`) index the monthly gifts by start and by cancellation (status `cancelled`), so a
 * month's new and cancelled gifts are one range read each; written in the same commit as the
 * record, and for stores written before them by the `report-indexes` data migration.
 *
 * @module
 */

import { commit, KV_LIMITS, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import {
  canonicalSubscription,
  checkInteger,
  isoInstant,
  subscriptionChanges,
  subscriptionDueAt,
} from "@/lib/storage/records.ts";
import { canonicalMessages } from "@/lib/storage/outbox_records.ts";
import { MAX_MESSAGES_PER_CAUSE, type MessageInput } from "@/lib/storage/outbox_types.ts";
import type { Subscription, SubscriptionRepository } from "@/lib/storage/types.ts";
import { addMessages, messageKeys } from "./outbox.ts";
import { batchLimit } from "@/lib/storage/queries.ts";

/** The first key part of every subscription, by id. */
export const SUBSCRIPTIONS = "subscriptions";
/** Subscriptions by `createdAt` (the reports' new monthly gifts). */
export const SUBSCRIPTIONS_BY_CREATED = "subscriptions_by_created";
/** Cancelled subscriptions by `cancelledAt` (the reports' cancelled monthly gifts). */
export const SUBSCRIPTIONS_BY_CANCELLED = "subscriptions_by_cancelled";

/** The `["subscriptions_by_created", createdAt, id]` key of a subscription. */
export const createdKey = (s: Subscription): Deno.KvKey => [SUBSCRIPTIONS_BY_CREATED, s.createdAt, s.id];
/** The `["subscriptions_by_cancelled", cancelledAt, id]` key of a cancelled subscription, else null. */
export const cancelledKey = (s: Subscription): Deno.KvKey | null =>
  s.status === "cancelled" && s.cancelledAt !== null
    ? [SUBSCRIPTIONS_BY_CANCELLED, s.cancelledAt, s.id]
    : null;
/** A donor's subscriptions, oldest first. */
export const SUBSCRIPTIONS_BY_DONOR = "subscriptions_by_donor";
/** The active subscriptions by due time: copies, so `listDue` is one range read. */
const SUBSCRIPTIONS_DUE = "subscriptions_due";

/** The count of subscriptions per cancel reason (see the module doc). */
const CANCEL_REASON_COUNTS = "subscriptions_cancel_reasons";
/** Adding this to a `Deno.KvU64` subtracts one (sums wrap around at 2^64). */
const MINUS_ONE = (1n << 64n) - 1n;

/** Subscriptions a cancelForDonor commit changes at most (each: one check, four mutations). */
const CANCEL_CHUNK = 25;

const donorKey = (s: Subscription): Deno.KvKey => [SUBSCRIPTIONS_BY_DONOR, s.donorId, s.createdAt, s.id];
const dueKey = (s: Subscription): Deno.KvKey => [SUBSCRIPTIONS_DUE, subscriptionDueAt(s), s.id];

/**
 * Adds the writes of `after` replacing `before` (null: new) to `op`: record, donor and due index,
 * and the cancel reasons' counts.
 */
function writeSubscription(op: Deno.AtomicOperation, before: Subscription | null, after: Subscription) {
  op.set([SUBSCRIPTIONS, after.id], after);
  if (before === null) op.set(donorKey(after), after.id).set(createdKey(after), after.id);
  const [cancelledBefore, cancelledAfter] = [before && cancelledKey(before), cancelledKey(after)];
  if (cancelledBefore && !sameKey(cancelledBefore, cancelledAfter)) op.delete(cancelledBefore);
  if (cancelledAfter) op.set(cancelledAfter, after.id);
  if (before !== null && before.status === "active") op.delete(dueKey(before));
  if (after.status === "active") op.set(dueKey(after), after);
  const reasonBefore = before?.cancelReason ?? null;
  if (reasonBefore !== after.cancelReason) {
    if (reasonBefore !== null) op.sum([CANCEL_REASON_COUNTS, reasonBefore], MINUS_ONE);
    if (after.cancelReason !== null) op.sum([CANCEL_REASON_COUNTS, after.cancelReason], 1n);
  }
  return op;
}

const sameKey = (a: Deno.KvKey, b: Deno.KvKey | null) =>
  b !== null && a.length === b.length && a.every((part, i) => part === b[i]);

/** The donor's subscriptions (oldest first), as entries: the versionstamps are for checks. */
function donorEntries(kv: Deno.Kv, donorId: string): Promise<Deno.KvEntry<Subscription>[]> {
  return retryWhileLocked(async () => {
    const keys: Deno.KvKey[] = [];
    for await (const entry of kv.list<string>({ prefix: [SUBSCRIPTIONS_BY_DONOR, donorId] })) {
      keys.push([SUBSCRIPTIONS, entry.value]);
    }
    const reads: Promise<Deno.KvEntryMaybe<Subscription>[]>[] = [];
    for (let i = 0; i < keys.length; i += KV_LIMITS.keysPerRead) {
      reads.push(kv.getMany<Subscription[]>(keys.slice(i, i + KV_LIMITS.keysPerRead)));
    }
    return (await Promise.all(reads)).flat().filter((entry): entry is Deno.KvEntry<Subscription> =>
      entry.value !== null
    );
  });
}

/**
 * `subscriptions.cancelForDonor`: every active one, a chunk per commit (a donor has a few; chunks
 * keep any number within KV's limits). Each commit checks the records it changes: a racing write
 * makes it re-read, and a racing cancel leaves it nothing to do, so each one is counted once. The
 * messages go with the first commit that cancels something (none when nothing was active).
 */
async function cancelForDonor(
  kv: Deno.Kv,
  donorId: string,
  at: string,
  messages: MessageInput[],
): Promise<number> {
  const cancelledAt = isoInstant(at, "at");
  let cancelled = 0;
  for (;;) {
    const done = await untilCommitted(async () => {
      const active = (await donorEntries(kv, donorId)).filter((e) => e.value.status === "active");
      const chunk = active.slice(0, CANCEL_CHUNK);
      if (chunk.length === 0) return 0;
      const withMessages = cancelled === 0 && messages.length > 0;
      const messageEntries = withMessages
        ? await retryWhileLocked(() => kv.getMany<unknown[]>(messageKeys(messages)))
        : [];
      const ok = await commit(() => {
        const op = kv.atomic();
        if (withMessages) addMessages(op, messageEntries, messages, cancelledAt);
        for (const entry of chunk) {
          writeSubscription(op.check(entry), entry.value, {
            ...entry.value,
            status: "cancelled",
            cancelledAt,
            version: entry.value.version + 1,
          });
        }
        return op;
      });
      return ok ? chunk.length : RETRY;
    });
    if (done === 0) return cancelled;
    cancelled += done;
  }
}

/** The {@link SubscriptionRepository} of the store on `ctx`. */
export function kvSubscriptions({ kv }: KvContext): SubscriptionRepository {
  return {
    async create(input) {
      const subscription = canonicalSubscription(input);
      const key = [SUBSCRIPTIONS, subscription.id];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<Subscription>(key));
        if (entry.value !== null) return entry.value;
        const ok = await commit(() => writeSubscription(kv.atomic().check(entry), null, subscription));
        return ok ? subscription : RETRY;
      });
    },

    async get(id) {
      return (await retryWhileLocked(() => kv.get<Subscription>([SUBSCRIPTIONS, id]))).value;
    },

    async listByDonor(donorId) {
      return (await donorEntries(kv, donorId)).map((entry) => entry.value);
    },

    cancelForDonor: (donorId, at, options = {}) =>
      cancelForDonor(kv, donorId, at, canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE)),

    async listDue(now, limit) {
      checkInteger(limit, "limit", 1);
      // Due at `now` means a due time <= now; instants have whole milliseconds, so the range ends
      // before the first key of now + 1 ms.
      const end = new Date(Date.parse(isoInstant(now, "now")) + 1).toISOString();
      return await retryWhileLocked(async () => {
        const out: Subscription[] = [];
        const selector = { start: [SUBSCRIPTIONS_DUE], end: [SUBSCRIPTIONS_DUE, end] };
        for await (
          const entry of kv.list<Subscription>(selector, { limit, batchSize: Math.min(limit, 500) })
        ) {
          out.push(entry.value);
        }
        return out;
      });
    },

    async listRetrying(until, limit) {
      batchLimit(limit);
      const end = new Date(Date.parse(isoInstant(until, "until")) + 1).toISOString();
      // The due index up to `until`, keeping those whose last charge failed.
      return await retryWhileLocked(async () => {
        const out: Subscription[] = [];
        const selector = { start: [SUBSCRIPTIONS_DUE], end: [SUBSCRIPTIONS_DUE, end] };
        for await (const entry of kv.list<Subscription>(selector, { batchSize: 500 })) {
          if (entry.value.failedAttempts > 0) out.push(entry.value);
          if (out.length === limit) break;
        }
        return out;
      });
    },

    async updateIfActive(id, input) {
      const changes = subscriptionChanges(input);
      const key = [SUBSCRIPTIONS, id];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<Subscription>(key));
        if (entry.value === null || entry.value.status !== "active") return null;
        const after: Subscription = { ...entry.value, ...changes, version: entry.value.version + 1 };
        const ok = await commit(() => writeSubscription(kv.atomic().check(entry), entry.value, after));
        return ok ? after : RETRY;
      });
    },

    async countCancelReasons() {
      return await retryWhileLocked(async () => {
        const counts: Record<string, number> = {};
        for await (const entry of kv.list<Deno.KvU64>({ prefix: [CANCEL_REASON_COUNTS] })) {
          const count = Number(entry.value.value);
          if (count > 0) counts[entry.key[1] as string] = count;
        }
        return counts;
      });
    },

    async updateIfVersion(id, version, input, options = {}) {
      const changes = subscriptionChanges(input);
      const messages = canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE);
      const key = [SUBSCRIPTIONS, id];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<Subscription>(key));
        const before = entry.value;
        if (before === null || before.status !== "active" || before.version !== version) return null;
        const after: Subscription = { ...before, ...changes, version: version + 1 };
        const messageEntries = messages.length > 0
          ? await retryWhileLocked(() => kv.getMany<unknown[]>(messageKeys(messages)))
          : [];
        const at = new Date().toISOString();
        const ok = await commit(() => {
          const op = writeSubscription(kv.atomic().check(entry), before, after);
          if (messages.length > 0) addMessages(op, messageEntries, messages, at);
          return op;
        });
        return ok ? after : RETRY;
      });
    },
  };
}
