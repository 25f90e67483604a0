/**
 * The outbox on Deno KV: messages to people, stored with their cause and worked by the sender.
 *
 * | key                                  | value         | written by                         |
 * |--------------------------------------|---------------|------------------------------------|
 * | `["outbox", key]`                    | OutboxMessage | enqueue (and causes), claim, settle |
 * | `["outbox_due", dueAt, key]`         | message key   | while queued: its due time         |
 * | `["outbox_recent", createdAt, key]`  | message key   | enqueue (and causes)               |
 * | `["outbox_by_donor", donorId, createdAt, key]` | message key | enqueue (and causes), to a donor |
 *
 * `outbox_due` holds exactly the queued messages under their due time, so `claim(now)` is one
 * range read up to `now`. Every write of a message deletes its old due key and sets the new one in
 * the same commit, checked against the record as read: of two claimers, the one whose commit lands
 * second fails its check, re-reads and finds the message no longer due (its `dueAt` is the lease's
 * end). `outbox_recent` lists newest first with one reverse range read (`listFailing` reads it from
 * its `since` on, keeping the messages in trouble); `outbox_by_donor` (issue 15,
 * the donor portal's data export) lists one donor's messages the same way; messages stored before it
 * existed get it from the `outbox-donor-index` data migration (`migrations.ts`).
 *
 * A cause enqueues its messages in its own commit: {@link messageKeys} are read with the cause's
 * keys (one `getMany`, no extra round trip), and {@link addMessages} adds a check that each key is
 * still absent and the writes of the new ones. A key already stored is left as it is.
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { addAudit } from "./audit.ts";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import {
  byAge,
  canonicalMessages,
  canonicalOutcome,
  claimUntil,
  isFailing,
  newestMessageFirst,
  queuedMessage,
  recentLimit,
  recipientDonorId,
  settled,
} from "@/lib/storage/outbox_records.ts";
import { donorListArgs } from "@/lib/storage/donor_queries.ts";
import { checkInteger, isoInstant } from "@/lib/storage/records.ts";
import type { MessageInput, OutboxMessage, OutboxRepository } from "@/lib/storage/outbox_types.ts";

/** The first key part of every message, by key. */
const OUTBOX = "outbox";
/** The queued messages by due time. */
const OUTBOX_DUE = "outbox_due";
/** Every message by creation time, for the newest-first list. */
const OUTBOX_RECENT = "outbox_recent";

/** Every message to a donor, by donor and creation time. */
export const OUTBOX_BY_DONOR = "outbox_by_donor";

/** The `["outbox_by_donor", donorId, createdAt, key]` key of a message to a donor, or null (to the admins). */
export function outboxDonorKey(message: OutboxMessage): Deno.KvKey | null {
  const donorId = recipientDonorId(message);
  return donorId === null ? null : [OUTBOX_BY_DONOR, donorId, message.createdAt, message.key];
}

/** The first key part of every message record. */
export { OUTBOX };

/** The most messages one `enqueue` call stores (each: one check, four sets). */
const MAX_ENQUEUE = 100;

const dueKey = (m: OutboxMessage): Deno.KvKey => [OUTBOX_DUE, m.dueAt!, m.key];

/** The record keys of `messages`, to read with a cause's own keys. */
export const messageKeys = (messages: readonly MessageInput[]): Deno.KvKey[] =>
  messages.map((m) => [OUTBOX, m.key]);

/**
 * Adds to `op` the writes of each message whose entry (read with {@link messageKeys}, in the same
 * order) is absent, checked absent, queued at `at`; answers how many it adds.
 */
export function addMessages(
  op: Deno.AtomicOperation,
  entries: readonly Deno.KvEntryMaybe<unknown>[],
  messages: readonly MessageInput[],
  at: string,
): number {
  let added = 0;
  messages.forEach((input, i) => {
    if (entries[i].value !== null) return;
    const message = queuedMessage(input, at);
    op.check(entries[i]).set([OUTBOX, message.key], message).set(dueKey(message), message.key)
      .set([OUTBOX_RECENT, message.createdAt, message.key], message.key);
    const byDonor = outboxDonorKey(message);
    if (byDonor !== null) op.set(byDonor, message.key);
    added++;
  });
  return added;
}

/** Adds the replacement of `before` by `after` to `op`: the record and its due key. */
function rewrite(op: Deno.AtomicOperation, before: OutboxMessage, after: OutboxMessage) {
  op.set([OUTBOX, after.key], after);
  if (before.state === "queued") op.delete(dueKey(before));
  if (after.state === "queued") op.set(dueKey(after), after.key);
  return op;
}

/** `outbox.claim`: one range read of what is due, then one commit checking every record claimed. */
async function claim(
  ctx: KvContext,
  holder: string,
  now: string,
  leaseMs: number,
  limit: number,
): Promise<OutboxMessage[]> {
  const until = claimUntil(holder, now, leaseMs, limit);
  const at = isoInstant(now, "now");
  // Due at `now` means a due time <= now: the range ends before the first key of now + 1 ms.
  const end = new Date(Date.parse(at) + 1).toISOString();
  return await untilCommitted(async () => {
    const keys: Deno.KvKey[] = [];
    await retryWhileLocked(async () => {
      keys.length = 0;
      const selector = { start: [OUTBOX_DUE], end: [OUTBOX_DUE, end] };
      for await (const entry of ctx.kv.list<string>(selector, { limit })) keys.push([OUTBOX, entry.value]);
    });
    if (keys.length === 0) return [];
    const entries = (await ctx.getAll<OutboxMessage>(keys)).filter(
      (e): e is Deno.KvEntry<OutboxMessage> =>
        e.value !== null && e.value.state === "queued" && e.value.dueAt! <= at,
    );
    if (entries.length === 0) return RETRY; // the index moved under us: read it again
    const claimed = entries.map((e) => ({
      ...e.value,
      attempts: e.value.attempts + 1,
      claimedBy: holder,
      dueAt: until,
    }));
    const ok = await commit(() => {
      const op = ctx.kv.atomic();
      entries.forEach((entry, i) => rewrite(op.check(entry), entry.value, claimed[i]));
      return op;
    });
    return ok ? claimed.sort(byAge) : RETRY;
  });
}

/** The {@link OutboxRepository} of the store on `ctx`. */
export function kvOutbox(ctx: KvContext): OutboxRepository {
  const { kv } = ctx;
  const get = async (key: string) =>
    (await retryWhileLocked(() => kv.get<OutboxMessage>([OUTBOX, key]))).value;
  return {
    async enqueue(input, at, options = {}) {
      const when = isoInstant(at, "at");
      const audit = auditEntries(options.audit, when, MAX_AUDIT_PER_CAUSE);
      // With entries, one commit (ten messages at most): they are written only with a new message.
      const messages = canonicalMessages(input, audit.length > 0 ? 10 : MAX_ENQUEUE);
      let added = 0;
      // A commit per ten messages (one getMany each): far inside KV's limits.
      for (let i = 0; i < messages.length; i += 10) {
        const chunk = messages.slice(i, i + 10);
        added += await untilCommitted(async () => {
          const entries = await retryWhileLocked(() => kv.getMany<unknown[]>(messageKeys(chunk)));
          const fresh = entries.filter((entry) => entry.value === null).length;
          if (fresh === 0) return 0;
          const ok = await commit(() => {
            const op = kv.atomic();
            addMessages(op, entries, chunk, when);
            return addAudit(op, audit);
          });
          return ok ? fresh : RETRY;
        });
      }
      return added;
    },

    claim: (holder, now, leaseMs, limit) => claim(ctx, holder, now, leaseMs, limit),

    async settle(claimed, input) {
      const outcome = canonicalOutcome(input);
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<OutboxMessage>([OUTBOX, claimed.key]));
        if (entry.value === null) return false;
        const after = settled(entry.value, claimed, outcome);
        if (after === null) return false;
        return (await commit(() => rewrite(kv.atomic().check(entry), entry.value, after))) ? true : RETRY;
      });
    },

    get,

    async listRecent(limit, before) {
      recentLimit(limit);
      const selector: Deno.KvListSelector = before
        ? { start: [OUTBOX_RECENT], end: [OUTBOX_RECENT, isoInstant(before.createdAt), before.key] }
        : { prefix: [OUTBOX_RECENT] };
      const keys = await retryWhileLocked(async () => {
        const out: Deno.KvKey[] = [];
        for await (const entry of kv.list<string>(selector, { limit, reverse: true })) {
          out.push([OUTBOX, entry.value]);
        }
        return out;
      });
      return (await ctx.getAll<OutboxMessage>(keys)).flatMap((e) => e.value === null ? [] : [e.value]);
    },

    async listFailing(since, limit, before) {
      recentLimit(limit);
      const from = isoInstant(since, "since");
      const selector: Deno.KvListSelector = before
        ? { start: [OUTBOX_RECENT, from], end: [OUTBOX_RECENT, isoInstant(before.createdAt), before.key] }
        : { prefix: [OUTBOX_RECENT], start: [OUTBOX_RECENT, from] };
      // The recent index from `since` on, newest first, its messages read a chunk at a time.
      return await retryWhileLocked(async () => {
        const out: OutboxMessage[] = [];
        let keys: Deno.KvKey[] = [];
        const take = async () => {
          for (const e of await ctx.getAll<OutboxMessage>(keys)) {
            if (e.value !== null && isFailing(e.value) && out.length < limit) out.push(e.value);
          }
          keys = [];
        };
        for await (const entry of kv.list<string>(selector, { reverse: true, batchSize: 500 })) {
          keys.push([OUTBOX, entry.value]);
          if (keys.length === 200) await take();
          if (out.length === limit) return out;
        }
        await take();
        return out;
      });
    },

    async listByDonors(donorIds, max) {
      checkInteger(max, "limit", 1);
      if (max > 500) throw new RangeError(`limit must be at most 500: ${max}`);
      const { ids, limit } = donorListArgs(donorIds, max);
      const keys = (await Promise.all(ids.map((donorId) =>
        retryWhileLocked(async () => {
          const out: Deno.KvKey[] = [];
          const selector = { prefix: [OUTBOX_BY_DONOR, donorId] };
          for await (const entry of kv.list<string>(selector, { limit, reverse: true })) {
            out.push([OUTBOX, entry.value]);
          }
          return out;
        })
      ))).flat();
      const messages = (await ctx.getAll<OutboxMessage>(keys)).flatMap((e) =>
        e.value === null ? [] : [e.value]
      );
      return messages.sort(newestMessageFirst).slice(0, limit);
    },
  };
}
