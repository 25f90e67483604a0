/**
 * Monthly subscriptions on PostgreSQL: a donor's stored card token, charged once a period.
 *
 * Table `subscriptions` (migration 8): keyed by id (`collate "C"`), amount a `bigint` of minor
 * units, `failed_attempts` and `retry_at` for declined charges.
 * - `create` is `insert ... on conflict (id) do nothing`: a repeat answers the stored row;
 * - `updateIfActive` and `cancelForDonor` are `update ... where status = 'active'`: the row lock
 *   makes a racing cancel win or wait, so a cancelled subscription is never revived by billing;
 *   `cancelForDonor`'s messages go into `outbox` in the same statement (a `with` query);
 * - every write sets `version = version + 1` (migration 22, with `paused_from`, `charging` and
 *   `cancel_reason`); `updateIfVersion` is `update ... where status = 'active' and version = $v`:
 *   a racing write takes the row lock first and changes the version, so the re-checked row no longer
 *   matches and nothing is written; its messages go into `outbox` in the same statement;
 * - `listByDonor` reads `subscriptions_donor_id` `(donor_id, created_at, id)` (migration 8);
 * - `listDue` is a range of `subscriptions_due` (migration 8), a partial index of the active
 *   subscriptions on their due time `greatest(next_payment_date, retry_at)` and id: "due at now"
 *   is one range read in the order answered, however many subscriptions are not due;
 *   `listRetrying(until)` reads the same range up to `until`, keeping `failed_attempts > 0`;
 * - `countCancelReasons` groups `subscriptions_cancel_reason` (migration 23), a partial index of
 *   the rows with a `cancel_reason`: an index-only scan of the cancellations that gave a reason,
 *   never of every subscription.
 *
 * @module
 */

import {
  canonicalSubscription,
  checkInteger,
  isoInstant,
  subscriptionChanges,
} from "@/lib/storage/records.ts";
import { canonicalMessages } from "@/lib/storage/outbox_records.ts";
import { MAX_MESSAGES_PER_CAUSE } from "@/lib/storage/outbox_types.ts";
import type { Subscription, SubscriptionRepository } from "@/lib/storage/types.ts";
import { columnsOf, iso, type PgContext } from "./context.ts";
import { insertMessages } from "./outbox.ts";
import { batchLimit } from "@/lib/storage/queries.ts";

/** The row shape of `subscriptions`. */
interface SubscriptionRow {
  id: string;
  donor_id: string;
  amount: string;
  currency: number;
  provider: string;
  token: string;
  card_masked: string | null;
  language: string;
  status: Subscription["status"];
  created_at: Date;
  payment_date: Date | null;
  next_payment_date: Date;
  failed_attempts: number;
  retry_at: Date | null;
  cancelled_at: Date | null;
  version: number;
  paused_from: Date | null;
  charging: string | null;
  cancel_reason: string | null;
}

const toSubscription = (row: SubscriptionRow): Subscription => ({
  id: row.id,
  donorId: row.donor_id,
  amount: Number(row.amount),
  currency: row.currency as Subscription["currency"],
  provider: row.provider,
  token: row.token,
  cardMasked: row.card_masked,
  language: row.language,
  status: row.status,
  createdAt: row.created_at.toISOString(),
  paymentDate: iso(row.payment_date),
  nextPaymentDate: row.next_payment_date.toISOString(),
  failedAttempts: row.failed_attempts,
  retryAt: iso(row.retry_at),
  cancelledAt: iso(row.cancelled_at),
  version: row.version,
  pausedFrom: iso(row.paused_from),
  charging: row.charging,
  cancelReason: row.cancel_reason,
});

/** The columns of `subscriptions.updateIfActive`'s fields. */
const SUBSCRIPTION_COLUMNS = {
  paymentDate: "payment_date",
  nextPaymentDate: "next_payment_date",
  failedAttempts: "failed_attempts",
  retryAt: "retry_at",
  status: "status",
  amount: "amount",
  pausedFrom: "paused_from",
  charging: "charging",
  cancelledAt: "cancelled_at",
  cancelReason: "cancel_reason",
  token: "token",
  cardMasked: "card_masked",
} as const;

/**
 * The {@link SubscriptionRepository} on `subscriptions`.
 *
 * @example
 * ```ts
 * const due = await pgSubscriptions(ctx).listDue(new Date().toISOString(), 100);
 * ```
 */
export function pgSubscriptions({ sql }: PgContext): SubscriptionRepository {
  const getSubscription = async (id: string) => {
    const [row] = await sql<SubscriptionRow[]>`select * from subscriptions where id = ${id}`;
    return row ? toSubscription(row) : null;
  };

  return {
    async create(input) {
      const s = canonicalSubscription(input);
      const [row] = await sql<SubscriptionRow[]>`
        insert into subscriptions (
          id, donor_id, amount, currency, provider, token, card_masked, language, status, created_at,
          payment_date, next_payment_date, failed_attempts, retry_at, cancelled_at,
          version, paused_from, charging, cancel_reason
        ) values (
          ${s.id}, ${s.donorId}, ${s.amount}, ${s.currency}, ${s.provider}, ${s.token}, ${s.cardMasked},
          ${s.language}, ${s.status}, ${s.createdAt}, ${s.paymentDate}, ${s.nextPaymentDate},
          ${s.failedAttempts}, ${s.retryAt}, ${s.cancelledAt},
          ${s.version}, ${s.pausedFrom}, ${s.charging}, ${s.cancelReason}
        )
        on conflict (id) do nothing
        returning *
      `;
      if (row) return toSubscription(row);
      // `on conflict` waited for the other insert to commit: the row is there to read.
      const existing = await getSubscription(s.id);
      if (!existing) throw new Error(`subscription ${s.id} conflicted but is missing`);
      return existing;
    },

    get: getSubscription,

    async listByDonor(donorId) {
      const rows = await sql<SubscriptionRow[]>`
        select * from subscriptions where donor_id = ${donorId} order by created_at, id
      `;
      return rows.map(toSubscription);
    },

    async cancelForDonor(donorId, at, options = {}) {
      const messages = canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE);
      const cancelledAt = isoInstant(at, "at");
      // Row locks make a concurrent cancel wait, then skip the rows it no longer finds active.
      const cancel = sql`
        update subscriptions set status = 'cancelled', cancelled_at = ${cancelledAt}, version = version + 1
        where donor_id = ${donorId} and status = 'active'
        returning id
      `;
      if (messages.length === 0) return (await sql`${cancel}`).length;
      // One statement: the messages are written only when something was cancelled.
      const [{ n }] = await sql<{ n: number }[]>`
        with cancelled as (${cancel}),
        messages as (
          ${insertMessages(sql, messages, cancelledAt, sql`where exists (select 1 from cancelled)`)}
        )
        select count(*)::int as n from cancelled
      `;
      return n;
    },

    async listDue(now, limit) {
      checkInteger(limit, "limit", 1);
      // The expression of the partial index subscriptions_due (migration 8): one range scan.
      const rows = await sql<SubscriptionRow[]>`
        select * from subscriptions
        where status = 'active' and greatest(next_payment_date, retry_at) <= ${isoInstant(now, "now")}
        order by greatest(next_payment_date, retry_at), id
        limit ${limit}
      `;
      return rows.map(toSubscription);
    },

    async listRetrying(until, limit) {
      batchLimit(limit);
      // A range of the partial index subscriptions_due up to `until`, keeping the failing ones.
      const rows = await sql<SubscriptionRow[]>`
        select * from subscriptions
        where status = 'active' and greatest(next_payment_date, retry_at) <= ${isoInstant(until, "until")}
          and failed_attempts > 0
        order by greatest(next_payment_date, retry_at), id
        limit ${limit}
      `;
      return rows.map(toSubscription);
    },

    async updateIfActive(id, input) {
      const set = columnsOf(subscriptionChanges(input), SUBSCRIPTION_COLUMNS);
      const [row] = Object.keys(set).length === 0
        ? await sql<SubscriptionRow[]>`
          update subscriptions set version = version + 1 where id = ${id} and status = 'active' returning *
        `
        : await sql<SubscriptionRow[]>`
          update subscriptions set ${sql(set)}, version = version + 1
          where id = ${id} and status = 'active' returning *
        `;
      return row ? toSubscription(row) : null;
    },

    async countCancelReasons() {
      // The predicate of the partial index subscriptions_cancel_reason (migration 23).
      const rows = await sql<{ reason: string; n: number }[]>`
        select cancel_reason as reason, count(*)::int as n from subscriptions
        where cancel_reason is not null
        group by cancel_reason
      `;
      return Object.fromEntries(rows.map((r) => [r.reason, r.n]));
    },

    async updateIfVersion(id, version, input, options = {}) {
      const set = columnsOf(subscriptionChanges(input), SUBSCRIPTION_COLUMNS);
      const messages = canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE);
      // postgres.js reads `set ${sql(set)}` as an update's columns only inline, after `set`.
      const update = Object.keys(set).length === 0
        ? sql`
          update subscriptions set version = version + 1
          where id = ${id} and status = 'active' and version = ${version} returning *
        `
        : sql`
          update subscriptions set ${sql(set)}, version = version + 1
          where id = ${id} and status = 'active' and version = ${version} returning *
        `;
      if (messages.length === 0) {
        const [row] = await sql<SubscriptionRow[]>`${update}`;
        return row ? toSubscription(row) : null;
      }
      // One statement: the messages are written only when the change was.
      const [row] = await sql<SubscriptionRow[]>`
        with changed as (${update}),
        messages as (
          ${
        insertMessages(sql, messages, new Date().toISOString(), sql`where exists (select 1 from changed)`)
      }
        )
        select * from changed
      `;
      return row ? toSubscription(row) : null;
    },
  };
}
