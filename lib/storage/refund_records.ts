/**
 * Refunds' records, the same on both backends: a refund checked and copied to exactly the stored
 * fields, and a pending refund once settled. Deno KV and PostgreSQL store exactly what these answer.
 *
 * @module
 */

import { checkInteger, isoInstant } from "./records.ts";
import {
  type FailureReport,
  type Refund,
  REFUND_REASONS,
  type RefundOutcome,
  type RefundReason,
} from "./refund_types.ts";

const REASONS: ReadonlySet<string> = new Set(REFUND_REASONS);
/** Field limits: an idempotency key, a staff note, a provider's reference or error. */
export const MAX_REFUND_KEY = 100;
export const MAX_REFUND_NOTE = 500;
const MAX_REF = 200;
const MAX_ERROR = 500;

function text(value: unknown, what: string, max: number, allowEmpty = true): string {
  if (typeof value !== "string" || value.length > max || (!allowEmpty && value === "")) {
    throw new RangeError(`refund ${what} must be a string of ${allowEmpty ? 0 : 1}..${max} characters`);
  }
  return value;
}

/** Throws RangeError unless `reason` is one of {@link REFUND_REASONS}. */
export function checkRefundReason(reason: unknown): RefundReason {
  if (typeof reason !== "string" || !REASONS.has(reason)) {
    throw new RangeError(`unknown refund reason ${JSON.stringify(reason)}`);
  }
  return reason as RefundReason;
}

/** The refund as stored: checked, copied to exactly the stored fields. */
export function canonicalRefund(r: Refund): Refund {
  if (r.currency !== 1 && r.currency !== 2) throw new RangeError("refund currency must be 1 or 2");
  if (!["pending", "succeeded", "failed"].includes(r.state)) throw new RangeError("unknown refund state");
  return {
    id: text(r.id, "id", MAX_REF, false),
    transactionId: text(r.transactionId, "transactionId", MAX_REF, false),
    key: text(r.key, "key", MAX_REFUND_KEY, false),
    amount: checkInteger(r.amount, "amount", 1),
    currency: r.currency,
    reason: checkRefundReason(r.reason),
    note: text(r.note, "note", MAX_REFUND_NOTE),
    actorId: text(r.actorId, "actorId", MAX_REF, false),
    actorEmail: text(r.actorEmail, "actorEmail", 254),
    cancelMonthly: r.cancelMonthly === true,
    createdAt: isoInstant(r.createdAt, "createdAt"),
    state: r.state,
    providerRef: r.providerRef == null ? null : text(r.providerRef, "providerRef", MAX_REF),
    error: r.error == null ? null : text(r.error, "error", MAX_ERROR),
    settledAt: r.settledAt == null ? null : isoInstant(r.settledAt, "settledAt"),
    failureReport: r.failureReport == null ? null : canonicalFailureReport(r.failureReport),
  };
}

/** A failure report as stored: checked, copied to exactly its fields. */
export function canonicalFailureReport(report: FailureReport): FailureReport {
  return {
    actorId: text(report.actorId, "failureReport.actorId", MAX_REF, false),
    actorEmail: text(report.actorEmail, "failureReport.actorEmail", 254),
    at: isoInstant(report.at, "failureReport.at"),
  };
}

/** A pending refund after `outcome` (checked). */
export function settledRefund(before: Refund, outcome: RefundOutcome): Refund {
  return canonicalRefund({
    ...before,
    state: outcome.state,
    providerRef: outcome.state === "succeeded" ? text(outcome.providerRef, "providerRef", MAX_REF) : null,
    error: outcome.state === "failed" ? outcome.error.slice(0, MAX_ERROR) : null,
    settledAt: isoInstant(outcome.at, "at"),
  });
}

/** Checks a batch of ids for `totals`. */
export function checkRefundIds(ids: readonly string[]): readonly string[] {
  if (ids.length > 1_000) throw new RangeError(`at most 1000 transaction ids: ${ids.length}`);
  return ids;
}

/** Checks `listPending`'s arguments; answers `before` as a canonical ISO instant. */
export function checkPendingQuery(before: string, limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1_000) {
    throw new RangeError(`limit must be 1..1000: ${limit}`);
  }
  return isoInstant(before, "before");
}
