/**
 * Refunds on PostgreSQL: table `refunds` (migration 28), one row per refund, unique per
 * `(transaction_id, idem_key)`.
 * - `begin` runs in a transaction holding an advisory lock per transaction (the refunds of one gift
 *   take turns; others do not wait), then finds the key, sums the pending and succeeded refunds and
 *   inserts only when the new one fits in what was paid;
 * - `settle` is one `with` statement: the update (only while pending) and, only when it happened,
 *   the audit entries and the donor's messages; with a membership change (a succeeded refund of a
 *   membership's payment), that statement and the change run in one transaction under the
 *   membership's lock; `reportFailure` likewise (only while pending and
 *   unreported; its columns `failure_reported_*` are migration 31's);
 * - `totals` is one grouped read of a page's transactions;
 * - `listPending` reads the partial index of the pending refunds (`refunds_pending_created_at`).
 *
 * @module
 */

import type postgres from "postgres";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import { canonicalMessages } from "@/lib/storage/outbox_records.ts";
import { MAX_MESSAGES_PER_CAUSE } from "@/lib/storage/outbox_types.ts";
import {
  canonicalFailureReport,
  canonicalRefund,
  checkPendingQuery,
  checkRefundIds,
  settledRefund,
} from "@/lib/storage/refund_records.ts";
import {
  type Refund,
  RefundExceedsPaidError,
  type RefundRepository,
  type RefundTotals,
} from "@/lib/storage/refund_types.ts";
import { insertAudit } from "./audit.ts";
import { iso, type PgContext } from "./context.ts";
import { insertMessages } from "./outbox.ts";
import { applyLocked, lockMembership } from "./memberships.ts";

/** The row shape of `refunds`. */
interface RefundRow {
  id: string;
  transaction_id: string;
  idem_key: string;
  amount: string | number;
  currency: number;
  reason: Refund["reason"];
  note: string;
  actor_id: string;
  actor_email: string;
  cancel_monthly: boolean;
  created_at: Date;
  state: Refund["state"];
  provider_ref: string | null;
  error: string | null;
  settled_at: Date | null;
  failure_reported_by: string | null;
  failure_reported_email: string | null;
  failure_reported_at: Date | null;
}

const toRefund = (row: RefundRow): Refund => ({
  id: row.id,
  transactionId: row.transaction_id,
  key: row.idem_key,
  amount: Number(row.amount),
  currency: row.currency as 1 | 2,
  reason: row.reason,
  note: row.note,
  actorId: row.actor_id,
  actorEmail: row.actor_email,
  cancelMonthly: row.cancel_monthly,
  createdAt: row.created_at.toISOString(),
  state: row.state,
  providerRef: row.provider_ref,
  error: row.error,
  settledAt: iso(row.settled_at),
  failureReport: row.failure_reported_by === null ? null : {
    actorId: row.failure_reported_by,
    actorEmail: row.failure_reported_email!,
    at: iso(row.failure_reported_at)!,
  },
});

/** Takes the lock that serializes the refunds of one transaction, for the rest of `tx`. */
const lockTransaction = (tx: postgres.TransactionSql, transactionId: string) =>
  tx`select pg_advisory_xact_lock(hashtextextended('donations.refunds:' || current_schema() || ':' || ${transactionId}, 0))`;

/**
 * The {@link RefundRepository} on `refunds`.
 *
 * @example
 * ```ts
 * const refunds = await pgRefunds(ctx).listByTransaction("tx_1");
 * ```
 */
export function pgRefunds({ sql, transaction }: PgContext): RefundRepository {
  return {
    async begin(input, paid) {
      const r = canonicalRefund({
        ...input,
        state: "pending",
        providerRef: null,
        error: null,
        settledAt: null,
        failureReport: null,
      });
      return await transaction(async (tx) => {
        await lockTransaction(tx, r.transactionId);
        const [existing] = await tx<RefundRow[]>`
          select * from refunds where transaction_id = ${r.transactionId} and idem_key = ${r.key}
        `;
        if (existing) return { created: false, refund: toRefund(existing) };
        const [{ taken }] = await tx<{ taken: string }[]>`
          select coalesce(sum(amount), 0)::text as taken from refunds
          where transaction_id = ${r.transactionId} and state in ('pending', 'succeeded')
        `;
        const remaining = paid - Number(taken);
        if (r.amount > remaining) throw new RefundExceedsPaidError(Math.max(0, remaining));
        await tx`
          insert into refunds (id, transaction_id, idem_key, amount, currency, reason, note, actor_id,
            actor_email, cancel_monthly, created_at, state)
          values (${r.id}, ${r.transactionId}, ${r.key}, ${r.amount}, ${r.currency}, ${r.reason}, ${r.note},
            ${r.actorId}, ${r.actorEmail}, ${r.cancelMonthly}, ${r.createdAt}, 'pending')
        `;
        return { created: true, refund: r };
      });
    },

    async settle(transactionId, id, outcome, options = {}) {
      const audit = auditEntries(options.audit, outcome.at, MAX_AUDIT_PER_CAUSE);
      const messages = canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE);
      const [row] = await sql<RefundRow[]>`
        select * from refunds where transaction_id = ${transactionId} and id = ${id}
      `;
      if (!row || row.state !== "pending") return null;
      const after = settledRefund(toRefund(row), outcome);
      const settle = async (db: postgres.Sql | postgres.TransactionSql) => {
        const when = db`where exists (select 1 from changed)`;
        const [changed] = await db<RefundRow[]>`
          with changed as (
            update refunds set state = ${after.state}, provider_ref = ${after.providerRef},
              error = ${after.error}, settled_at = ${after.settledAt}
            where transaction_id = ${transactionId} and id = ${id} and state = 'pending'
            returning *
          ),
          audited as (${audit.length > 0 ? insertAudit(db, audit, when) : db`select 1`}),
          messaged as (${messages.length > 0 ? insertMessages(db, messages, outcome.at, when) : db`select 1`})
          select * from changed
        `;
        return changed ? toRefund(changed) : null;
      };
      const change = after.state === "succeeded" ? options.membership : undefined;
      if (!change) return await settle(sql);
      // The term the refunded payment bought ends in the same transaction, under the membership's
      // lock, only when this settlement is the one that happened.
      return await transaction(async (tx) => {
        const current = await lockMembership(tx, change.email);
        const settled = await settle(tx);
        if (settled) await applyLocked(tx, change, current, outcome.at);
        return settled;
      });
    },

    async reportFailure(transactionId, id, input, options = {}) {
      const report = canonicalFailureReport(input);
      const audit = auditEntries(options.audit, report.at, MAX_AUDIT_PER_CAUSE);
      const when = sql`where exists (select 1 from changed)`;
      const [changed] = await sql<RefundRow[]>`
        with changed as (
          update refunds set failure_reported_by = ${report.actorId},
            failure_reported_email = ${report.actorEmail}, failure_reported_at = ${report.at}
          where transaction_id = ${transactionId} and id = ${id} and state = 'pending'
            and failure_reported_by is null
          returning *
        ),
        audited as (${audit.length > 0 ? insertAudit(sql, audit, when) : sql`select 1`})
        select * from changed
      `;
      return changed ? toRefund(changed) : null;
    },

    async get(transactionId, id) {
      const [row] = await sql<RefundRow[]>`
        select * from refunds where transaction_id = ${transactionId} and id = ${id}
      `;
      return row ? toRefund(row) : null;
    },

    async listByTransaction(transactionId) {
      const rows = await sql<RefundRow[]>`
        select * from refunds where transaction_id = ${transactionId}
        order by created_at, id collate "C" limit 1000
      `;
      return rows.map(toRefund);
    },

    async listPending(before, limit) {
      const end = checkPendingQuery(before, limit);
      const rows = await sql<RefundRow[]>`
        select * from refunds where state = 'pending' and created_at < ${end}
        order by created_at, id limit ${limit}
      `;
      return rows.map(toRefund);
    },

    async totals(ids) {
      const list = [...new Set(checkRefundIds(ids))];
      const out = new Map<string, RefundTotals>();
      if (list.length === 0) return out;
      const rows = await sql<{ transaction_id: string; refunded: string; pending: string }[]>`
        select transaction_id,
          coalesce(sum(amount) filter (where state = 'succeeded'), 0)::text as refunded,
          coalesce(sum(amount) filter (where state = 'pending'), 0)::text as pending
        from refunds where transaction_id = any(${list}) and state <> 'failed'
        group by transaction_id
      `;
      for (const r of rows) {
        out.set(r.transaction_id, { refunded: Number(r.refunded), pending: Number(r.pending) });
      }
      return out;
    },
  };
}
