/**
 * The storage contract for refunds (`store.refunds`, issue 16): money given back on a successful
 * gift, in full or in part, by the museum's staff. Types only; the canonical form both backends store
 * is in `refund_records.ts`.
 *
 * A refund's life: `pending` (recorded, its amount reserved, the provider not yet answered) →
 * `succeeded` (the provider gave the money back: it counts as refunded) or `failed` (the provider
 * refused or could not be reached: it counts for nothing, and its amount is free again).
 *
 * Two promises hold on both backends, across instances:
 * - **once per key**: `begin` with a key already used on the transaction answers that refund and
 *   writes nothing (a double click, a retried request);
 * - **never more than paid**: `begin` checks, in the same atomic step as it writes, that the
 *   transaction's pending and succeeded refunds plus this one do not exceed what was paid; two staff
 *   pressing at once both land only when both fit.
 *
 * @module
 */

import type { WithAudit } from "./audit_types.ts";
import type { WithMessages } from "./outbox_types.ts";
import type { WithMembership } from "./membership_types.ts";

/** Why money is given back: the short list the back office offers (free text goes in `note`). */
export const REFUND_REASONS = ["requested-by-donor", "duplicate", "mistake", "fraud", "other"] as const;

/** One of {@link REFUND_REASONS}. */
export type RefundReason = typeof REFUND_REASONS[number];

/** Where a refund is in its life. */
export type RefundState = "pending" | "succeeded" | "failed";

/** A refund as stored. */
export interface Refund {
  /** Unique (random). */
  id: string;
  /** The refunded transaction (a successful gift). */
  transactionId: string;
  /** The client's idempotency key: unique per transaction (1..100 characters). */
  key: string;
  /** Minor units, > 0. */
  amount: number;
  /** 1 = NIS, 2 = USD: the transaction's. */
  currency: 1 | 2;
  reason: RefundReason;
  /** Free text from the staff member (≤ 500 characters), may be empty. */
  note: string;
  /** Who asked (an admin id) and their email at the time. */
  actorId: string;
  actorEmail: string;
  /** Whether the monthly gift was also to be cancelled (asked on a monthly gift's refund). */
  cancelMonthly: boolean;
  /** ISO 8601: when it was asked. */
  createdAt: string;
  state: RefundState;
  /** The provider's id of the credit, once it succeeded. */
  providerRef: string | null;
  /** Why it failed, once it did. */
  error: string | null;
  /** ISO 8601: when the provider answered (succeeded or failed); null while pending. */
  settledAt: string | null;
  /**
   * A person's record that the provider's back office shows it did not go through (issue 23): the
   * refund stays pending, its amount reserved, until an owner (another person) confirms it; null
   * when none was recorded.
   */
  failureReport: FailureReport | null;
}

/** Who recorded that a pending refund did not go through, and when. */
export interface FailureReport {
  actorId: string;
  actorEmail: string;
  /** ISO 8601. */
  at: string;
}

/** A transaction's refund figures: succeeded (refunded) and still pending (reserved), minor units. */
export interface RefundTotals {
  refunded: number;
  pending: number;
}

/** How a pending refund ended, as {@link RefundRepository.settle} records it. */
export type RefundOutcome =
  | { state: "succeeded"; providerRef: string; at: string }
  | { state: "failed"; error: string; at: string };

/**
 * Thrown by `refunds.begin` when the refund would take the transaction's refunds (pending and
 * succeeded) past what was paid; nothing is written. `remaining` is what may still be refunded.
 */
export class RefundExceedsPaidError extends Error {
  constructor(readonly remaining: number) {
    super(`The refund is larger than what remains to refund (${remaining} in minor units)`);
    this.name = "RefundExceedsPaidError";
  }
}

/** Refunds: begin (reserve), settle (the provider's answer), read. */
export interface RefundRepository {
  /**
   * Records `refund` (state `pending`, canonical) when no refund of its transaction has its `key`
   * and the transaction's pending and succeeded refunds plus its amount are at most `paid`; answers
   * `{ created: true }`. With the key already used, writes nothing and answers that refund with
   * `created: false` (whatever its amount). Throws {@link RefundExceedsPaidError} when it does not
   * fit. The check and the write are one atomic step.
   */
  begin(refund: Refund, paid: number): Promise<{ created: boolean; refund: Refund }>;
  /**
   * Settles a pending refund with the provider's answer, with `audit` entries and `messages` (the
   * donor's email) in the same atomic step, at `outcome.at`; answers the refund as stored, or null
   * when it is unknown or no longer pending (then nothing is written). A `membership` change (the
   * term a refunded payment bought ending, issue 27) is applied in that step too, only when the
   * refund succeeded.
   */
  settle(
    transactionId: string,
    id: string,
    outcome: RefundOutcome,
    options?: WithAudit & WithMessages & WithMembership,
  ): Promise<Refund | null>;
  /**
   * Records `report` on a pending refund that has none, with `audit` entries in the same atomic
   * step (at `report.at`); the refund stays pending. Answers the refund as stored, or null when it
   * is unknown, no longer pending or reported already (then nothing is written).
   */
  reportFailure(
    transactionId: string,
    id: string,
    report: FailureReport,
    options?: WithAudit,
  ): Promise<Refund | null>;
  /** One refund, or null. */
  get(transactionId: string, id: string): Promise<Refund | null>;
  /** A transaction's refunds, oldest first (at most 1,000). */
  listByTransaction(transactionId: string): Promise<Refund[]>;
  /**
   * Pending refunds asked before `before` (ISO), oldest first (ties by id), at most `limit`
   * (1..1,000): those whose provider's answer never reached storage (an unclear answer, an instance
   * stopped midway), for the reconciliation pass (`lib/refunds/refund_reconcile.ts`). Costs work
   * in proportion to the pending refunds, not to all refunds.
   */
  listPending(before: string, limit: number): Promise<Refund[]>;
  /**
   * The refund totals of these transactions (at most 1,000 ids); a transaction without a pending or
   * succeeded refund is left out. For the lists and the export: one read for a page.
   */
  totals(transactionIds: readonly string[]): Promise<Map<string, RefundTotals>>;
}
