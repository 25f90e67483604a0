/**
 * The outbox on PostgreSQL: messages to people, stored with their cause and worked by the sender.
 *
 * Table `outbox` (migration 17): one row per message keyed by its idempotency key (`collate "C"`),
 * its state, attempts, `due_at` (set exactly while queued), holder and last error.
 * - enqueueing is `insert ... on conflict (key) do nothing`: a key stored before stays as it is.
 *   A cause writes its messages in its own statement ({@link insertMessages}, a fragment its
 *   `with` query or transaction runs): `transactions.record` and `subscriptions.cancelForDonor`
 *   stay one statement, so the payment path takes no extra round trip;
 * - `claim` is one `update ... from (select ... for update skip locked)` over the partial index
 *   `outbox_due` `(due_at, key) where state = 'queued'`: concurrent claimers skip each other's
 *   rows, and a row claimed and committed meanwhile is re-checked (`due_at` is now the lease's
 *   end), so each message goes to one claimer per lease;
 * - `settle` is one conditional `update`: `sent` while queued; the other outcomes only while the
 *   row still carries the caller's claim (holder and attempts);
 * - `listRecent` reads `outbox_recent` `(created_at desc, key desc)`, a page at a time, and
 *   `listFailing` the same index from its `since` on, keeping the messages in trouble;
 * - `listByDonors` (issue 15, the data export) reads `outbox_by_donor`
 *   `((recipient->>'donorId'), created_at desc, key desc)` (migration 24), one range per donor.
 *
 * @module
 */

import type postgres from "postgres";
import {
  byAge,
  canonicalMessages,
  canonicalOutcome,
  claimUntil,
  recentLimit,
} from "@/lib/storage/outbox_records.ts";
import { donorListArgs } from "@/lib/storage/donor_queries.ts";
import { checkInteger, isoInstant } from "@/lib/storage/records.ts";
import type {
  MessageInput,
  OutboxMessage,
  OutboxRepository,
  OutboxState,
} from "@/lib/storage/outbox_types.ts";
import { iso, type PgContext } from "./context.ts";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import { insertAudit } from "./audit.ts";

/** The row shape of `outbox`. */
interface OutboxRow {
  key: string;
  kind: OutboxMessage["kind"];
  recipient: OutboxMessage["to"];
  language: string;
  data: OutboxMessage["data"];
  created_at: Date;
  state: OutboxState;
  attempts: number;
  due_at: Date | null;
  claimed_by: string | null;
  last_error: string | null;
  settled_at: Date | null;
}

const toMessage = (row: OutboxRow): OutboxMessage => ({
  key: row.key,
  kind: row.kind,
  to: row.recipient,
  language: row.language,
  data: row.data,
  createdAt: row.created_at.toISOString(),
  state: row.state,
  attempts: row.attempts,
  dueAt: iso(row.due_at),
  claimedBy: row.claimed_by,
  lastError: row.last_error,
  settledAt: iso(row.settled_at),
});

/** The most messages one `enqueue` call stores. */
const MAX_ENQUEUE = 100;
/** The most with audit entries (as on Deno KV, where they share one commit). */
const MAX_ENQUEUE_AUDITED = 10;

/**
 * The statement (a fragment of `sql`) inserting `messages` (canonical) queued at `at`, each only
 * when its key is new; `condition` (e.g. `where exists (select 1 from cancelled)`) decides whether
 * any is written, so a cause's `with` query writes them only when the cause happened.
 */
export function insertMessages(
  sql: postgres.Sql | postgres.TransactionSql,
  messages: readonly MessageInput[],
  at: string,
  condition: postgres.PendingQuery<postgres.Row[]> = sql``,
): postgres.PendingQuery<postgres.Row[]> {
  const rows = messages.map((m) => ({
    key: m.key,
    kind: m.kind,
    recipient: m.to,
    language: m.language,
    data: m.data,
    not_before: m.notBefore ?? null,
  }));
  // Due at the cause's time, or at a message's notBefore when later (a gift's delivery date).
  return sql`
    insert into outbox (key, kind, recipient, language, data, created_at, due_at)
    select m.key, m.kind, m.recipient, m.language, m.data, ${at}::timestamptz,
      greatest(${at}::timestamptz, coalesce(m.not_before, ${at}::timestamptz))
    from jsonb_to_recordset(${sql.json(rows as unknown as postgres.JSONValue)}::jsonb)
      as m (key text, kind text, recipient jsonb, language text, data jsonb, not_before timestamptz)
    ${condition}
    on conflict (key) do nothing
  `;
}

/**
 * The {@link OutboxRepository} on `outbox`.
 *
 * @example
 * ```ts
 * const due = await pgOutbox(ctx).claim("web-1", new Date().toISOString(), 60_000, 10);
 * ```
 */
export function pgOutbox({ sql }: PgContext): OutboxRepository {
  /** Messages newest first (`outbox_recent`: created_at, then key, descending) after `before`, meeting `filter`. */
  const newestFirst = async (
    limit: number,
    before: Pick<OutboxMessage, "createdAt" | "key"> | null | undefined,
    filter: postgres.PendingQuery<postgres.Row[]> = sql`true`,
  ) => {
    const after = before
      ? sql`(created_at, key) < (${isoInstant(before.createdAt)}::timestamptz, ${before.key})`
      : sql`true`;
    const rows = await sql<OutboxRow[]>`
      select * from outbox where ${filter} and ${after}
      order by created_at desc, key desc
      limit ${limit}
    `;
    return rows.map(toMessage);
  };

  return {
    async enqueue(input, at, options = {}) {
      const when = isoInstant(at, "at");
      const audit = auditEntries(options.audit, when, MAX_AUDIT_PER_CAUSE);
      const messages = canonicalMessages(input, audit.length > 0 ? MAX_ENQUEUE_AUDITED : MAX_ENQUEUE);
      if (messages.length === 0) return 0;
      if (audit.length === 0) return (await insertMessages(sql, messages, when)).count;
      // One statement: the staff action's entries are written only when a message was new.
      const [{ n }] = await sql<{ n: number }[]>`
        with added as (${insertMessages(sql, messages, when)} returning key),
        logged as (${insertAudit(sql, audit, sql`where exists (select 1 from added)`)})
        select count(*)::int as n from added
      `;
      return n;
    },

    async claim(holder, now, leaseMs, limit) {
      const until = claimUntil(holder, now, leaseMs, limit);
      const rows = await sql<OutboxRow[]>`
        update outbox o set attempts = o.attempts + 1, claimed_by = ${holder}, due_at = ${until}
        from (
          select key from outbox
          where state = 'queued' and due_at <= ${isoInstant(now, "now")}
          order by due_at, key
          limit ${limit}
          for update skip locked
        ) d
        where o.key = d.key
        returning o.*
      `;
      return rows.map(toMessage).sort(byAge);
    },

    async settle(claim, input) {
      const outcome = canonicalOutcome(input);
      const ownClaim =
        sql`and claimed_by is not distinct from ${claim.claimedBy} and attempts = ${claim.attempts}`;
      let rows;
      if (outcome.state === "sent") {
        rows = await sql`
          update outbox set state = 'sent', due_at = null, last_error = null, settled_at = ${outcome.at}
          where key = ${claim.key} and state = 'queued'
          returning key
        `;
      } else if (outcome.state === "queued") {
        rows = await sql`
          update outbox set due_at = ${outcome.retryAt}, last_error = ${outcome.reason}
          where key = ${claim.key} and state = 'queued' ${ownClaim}
          returning key
        `;
      } else {
        rows = await sql`
          update outbox set state = ${outcome.state}, due_at = null, last_error = ${outcome.reason},
            settled_at = ${outcome.at}
          where key = ${claim.key} and state = 'queued' ${ownClaim}
          returning key
        `;
      }
      return rows.length === 1;
    },

    async get(key) {
      const [row] = await sql<OutboxRow[]>`select * from outbox where key = ${key}`;
      return row ? toMessage(row) : null;
    },

    async listRecent(limit, before) {
      return await newestFirst(recentLimit(limit), before);
    },

    async listFailing(since, limit, before) {
      // A range of outbox_recent from `since` on; the rule of `isFailing` (outbox_records.ts).
      return await newestFirst(
        recentLimit(limit),
        before,
        sql`created_at >= ${isoInstant(since, "since")}
          and (state = 'failed' or (state = 'queued' and last_error is not null))`,
      );
    },

    async listByDonors(donorIds, max) {
      checkInteger(max, "limit", 1);
      if (max > 500) throw new RangeError(`limit must be at most 500: ${max}`);
      const { ids, limit } = donorListArgs(donorIds, max);
      if (ids.length === 0) return [];
      // One index range per donor (a lateral join), merged in the contract's order.
      const rows = await sql<OutboxRow[]>`
        select m.* from unnest(${ids}::text[]) as d(id)
        cross join lateral (
          select * from outbox where recipient->>'donorId' = d.id
          order by created_at desc, key desc limit ${limit}
        ) m
        order by m.created_at desc, m.key desc
        limit ${limit}
      `;
      return rows.map(toMessage);
    },
  };
}
