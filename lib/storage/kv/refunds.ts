/**
 * Refunds on Deno KV: each refund under its transaction, its idempotency key, and one running total
 * per transaction that every write checks, so "once per key" and "never more than paid" are one
 * read-check-commit each.
 *
 * | key                                           | value          | written by         |
 * |-----------------------------------------------|----------------|--------------------|
 * | `["refunds", txId, id]`                       | Refund         | begin, settle, reportFailure |
 * | `["refund_keys", txId, key]`                  | refund id      | begin              |
 * | `["refund_totals", txId]`                     | RefundTotals   | begin, settle      |
 * | `["refunds_by_settled", settledAt, txId, id]` | [txId, id]     | settle (succeeded) |
 * | `["refunds_pending", createdAt, txId, id]`    | [txId, id]     | begin; settle deletes it |
 *
 * `begin` checks the key (absent) and the total (as read) and writes the three keys; two staff
 * refunding one gift at once both move the total, so the second commit fails its check, re-reads
 * and decides again on the new total. `settle` checks the refund (as read, pending) and the total,
 * moving the amount from `pending` to `refunded` (or dropping it), with the audit entries, the
 * donor's messages and a succeeded refund's membership change (its key checked as read) in the
 * same commit; `reportFailure` checks the refund (as read, pending, not
 * reported) and writes the report with its audit entries. A succeeded refund also gets its time
 * index key in that commit: the accountant's report sums the refunds settled in its months
 * (`reports.ts`) by reading that range only.
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { addAudit } from "./audit.ts";
import { addMessages, messageKeys } from "./outbox.ts";
import { membershipKey, planMembership } from "./memberships.ts";
import type { Membership } from "@/lib/storage/membership_types.ts";
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

/** `["refunds", txId, id]`: each refund (read by the report, `reports.ts`). */
export const REFUNDS = "refunds";
/** `["refunds_by_settled", settledAt, txId, id]`: the succeeded refunds by when they were settled. */
export const REFUNDS_BY_SETTLED = "refunds_by_settled";
/** `["refunds_pending", createdAt, txId, id]`: the refunds still waiting for their provider's answer. */
const REFUNDS_PENDING = "refunds_pending";
const REFUND_KEYS = "refund_keys";
const REFUND_TOTALS = "refund_totals";
const NONE: RefundTotals = { refunded: 0, pending: 0 };

/** The {@link RefundRepository} of the store on `ctx`. */
export function kvRefunds({ kv, getAll }: KvContext): RefundRepository {
  return {
    async begin(input, paid) {
      const refund = canonicalRefund({
        ...input,
        state: "pending",
        providerRef: null,
        error: null,
        settledAt: null,
        failureReport: null,
      });
      const keyKey = [REFUND_KEYS, refund.transactionId, refund.key];
      const totalKey = [REFUND_TOTALS, refund.transactionId];
      return await untilCommitted(async () => {
        const [keyEntry, totalEntry] = await retryWhileLocked(() =>
          kv.getMany<[string, RefundTotals]>([keyKey, totalKey])
        );
        if (keyEntry.value !== null) {
          const existing = await retryWhileLocked(() =>
            kv.get<Refund>([REFUNDS, refund.transactionId, keyEntry.value!])
          );
          if (existing.value !== null) return { created: false, refund: existing.value };
          return RETRY; // the key commits with its refund: not yet visible, read again
        }
        const totals = totalEntry.value ?? NONE;
        const remaining = paid - totals.refunded - totals.pending;
        if (refund.amount > remaining) throw new RefundExceedsPaidError(Math.max(0, remaining));
        const ok = await commit(() =>
          kv.atomic().check(keyEntry, totalEntry)
            .set([REFUNDS, refund.transactionId, refund.id], refund)
            .set(keyKey, refund.id)
            .set([REFUNDS_PENDING, refund.createdAt, refund.transactionId, refund.id], [
              refund.transactionId,
              refund.id,
            ])
            .set(totalKey, { refunded: totals.refunded, pending: totals.pending + refund.amount })
        );
        return ok ? { created: true, refund } : RETRY;
      });
    },

    async settle(transactionId, id, outcome, options = {}) {
      const audit = auditEntries(options.audit, outcome.at, MAX_AUDIT_PER_CAUSE);
      const messages = canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE);
      const totalKey = [REFUND_TOTALS, transactionId];
      const change = outcome.state === "succeeded" ? options.membership : undefined;
      return await untilCommitted(async () => {
        const [entry, totalEntry, memberEntry] = await retryWhileLocked(() =>
          kv.getMany<unknown[]>([
            [REFUNDS, transactionId, id],
            totalKey,
            ...(change ? [membershipKey(change.email)] : []),
          ])
        ) as [Deno.KvEntryMaybe<Refund>, Deno.KvEntryMaybe<RefundTotals>, Deno.KvEntryMaybe<Membership>];
        if (entry.value === null || entry.value.state !== "pending") return null;
        const after = settledRefund(entry.value, outcome);
        // The term the refunded payment bought ends in the same commit (checked as read).
        const member = change ? planMembership(memberEntry, change, outcome.at) : null;
        const totals = totalEntry.value ?? NONE;
        const next: RefundTotals = {
          refunded: totals.refunded + (after.state === "succeeded" ? after.amount : 0),
          pending: Math.max(0, totals.pending - after.amount),
        };
        const messageEntries = messages.length > 0
          ? await retryWhileLocked(() => kv.getMany<unknown[]>(messageKeys(messages)))
          : [];
        const ok = await commit(() => {
          const op = kv.atomic().check(entry, totalEntry).set(entry.key, after).set(totalKey, next)
            .delete([REFUNDS_PENDING, entry.value!.createdAt, transactionId, id]);
          if (after.state === "succeeded") {
            op.set([REFUNDS_BY_SETTLED, after.settledAt!, transactionId, id], [transactionId, id]);
          }
          addMessages(op, messageEntries, messages, outcome.at);
          member?.add(op);
          return addAudit(op, audit);
        });
        return ok ? after : RETRY;
      });
    },

    async reportFailure(transactionId, id, input, options = {}) {
      const report = canonicalFailureReport(input);
      const audit = auditEntries(options.audit, report.at, MAX_AUDIT_PER_CAUSE);
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<Refund>([REFUNDS, transactionId, id]));
        const before = entry.value;
        if (before === null || before.state !== "pending" || (before.failureReport ?? null) !== null) {
          return null;
        }
        const after = canonicalRefund({ ...before, failureReport: report });
        const ok = await commit(() => addAudit(kv.atomic().check(entry).set(entry.key, after), audit));
        return ok ? after : RETRY;
      });
    },

    async get(transactionId, id) {
      return (await retryWhileLocked(() => kv.get<Refund>([REFUNDS, transactionId, id]))).value;
    },

    async listByTransaction(transactionId) {
      return await retryWhileLocked(async () => {
        const out: Refund[] = [];
        for await (const e of kv.list<Refund>({ prefix: [REFUNDS, transactionId] }, { limit: 1_000 })) {
          out.push(e.value);
        }
        return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
      });
    },

    async listPending(before, limit) {
      const end = checkPendingQuery(before, limit);
      const pairs = await retryWhileLocked(async () => {
        const out: [string, string][] = [];
        const selector = { prefix: [REFUNDS_PENDING], end: [REFUNDS_PENDING, end] };
        for await (const e of kv.list<[string, string]>(selector, { limit })) out.push(e.value);
        return out;
      });
      const entries = await getAll<Refund>(pairs.map(([tx, id]) => [REFUNDS, tx, id]));
      return entries.flatMap((e) => e.value?.state === "pending" ? [e.value] : []);
    },

    async totals(ids) {
      const list = [...new Set(checkRefundIds(ids))];
      const entries = await getAll<RefundTotals>(list.map((id) => [REFUND_TOTALS, id]));
      const out = new Map<string, RefundTotals>();
      entries.forEach((e, i) => {
        if (e.value !== null && e.value.refunded + e.value.pending > 0) out.set(list[i], e.value);
      });
      return out;
    },
  };
}
