/**
 * The storage contract for visits (`store.visits`, issue 28): a member let in at the front desk,
 * checked in or allowed anyway with a reason. Types only; the canonical form both backends store is
 * in `visit_records.ts`, the rules (who may be let in, what a visit counts) in `lib/visits/`.
 *
 * A visit's id is the desk's own (the browser makes it before sending), so recording is idempotent:
 * the desk's offline queue sends a visit again until it hears an answer, and the same id twice
 * stores one visit (the first), with its audit entry written in the same atomic step only then.
 * Visits are never changed or deleted.
 *
 * @module
 */
import type { WithAudit } from "./audit_types.ts";

/** How a visitor came in: a valid membership checked in, or let in anyway (with a reason). */
export const VISIT_KINDS = ["check-in", "override"] as const;

/** One of {@link VISIT_KINDS}. */
export type VisitKind = typeof VISIT_KINDS[number];

/** The most guests one visit brings, and the longest reason and name (characters). */
export const MAX_VISIT_GUESTS = 50;
export const MAX_VISIT_REASON = 500;
export const MAX_VISIT_NAME = 200;

/** A visit as stored. */
export interface Visit {
  /** The desk's id for it: 16 to 64 characters of `A-Z a-z 0-9 _ -`. */
  id: string;
  /** The membership's number, or null for a visitor let in with no membership found. */
  number: string | null;
  /** Who came in: a cardholder's name ("" for a visitor let in with no membership found). */
  cardholder: string;
  /** Guests who came with them, 0..{@link MAX_VISIT_GUESTS}. */
  guests: number;
  /** The membership's level then, or null (no membership). */
  levelId: number | null;
  /** The staff member at the desk (admin id) and their email then. */
  deskId: string;
  deskEmail: string;
  /** ISO 8601: when the desk let them in (as the desk says; the server's time when it sent none). */
  at: string;
  kind: VisitKind;
  /** Why they were let in anyway: required for an override, null for a check-in. */
  reason: string | null;
}

/** What {@link VisitRepository.record} answers: the visit as stored, and whether this call stored it. */
export interface RecordedVisit {
  visit: Visit;
  created: boolean;
}

/** Where a page of visits starts after (newest first). */
export type VisitCursor = Pick<Visit, "at" | "id">;

/** Visits: recorded once per id, read by time or by member. */
export interface VisitRepository {
  /**
   * Stores `visit` unless a visit with its id exists, with `options.audit` in the same atomic step
   * only when it stores it. Answers the stored visit (the earlier one for a repeated id, whatever
   * the repeat says) and whether this call created it.
   */
  record(visit: Visit, options?: WithAudit): Promise<RecordedVisit>;
  get(id: string): Promise<Visit | null>;
  /**
   * The visits with `from <= at < to`, newest first (by `at`, then `id`, descending), at most
   * `limit` (1..1,000), after `before` when given. Work in proportion to the page.
   */
  listByTime(
    range: { from: string; to: string },
    limit: number,
    before?: VisitCursor | null,
  ): Promise<Visit[]>;
  /** The visits of the member `number`, newest first, at most `limit` (1..1,000), after `before`. */
  listByNumber(number: string, limit: number, before?: VisitCursor | null): Promise<Visit[]>;
}
