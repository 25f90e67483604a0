/**
 * The storage contract for the audit log (`store.audit`, issue 16): what the museum's staff did,
 * who did it, when, from which address and what changed. It is append-only: the repository has no
 * way to edit or delete an entry (and PostgreSQL refuses an `update` or `delete` on its table).
 *
 * An entry is written in the same atomic step as the action it records: a cause's storage call takes
 * {@link WithAudit} beside its messages (`admins.setStatus`, …), so an action without its entry, or
 * an entry of an action that did not happen, cannot be stored. An action with no write of its own
 * (a sign-in failure, an export) appends alone.
 *
 * Types only; the canonical form both backends store is in `audit_records.ts`.
 *
 * @module
 */
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry } from "@/lib/shared/audit.ts";

export { AUDIT_ACTIONS };
export type { AuditAction, AuditEntry };

/** What a caller gives to record an action. */
export interface AuditInput {
  action: AuditAction;
  /** The admin who acted; null when nobody was signed in (a failed sign-in of an unknown address). */
  actorId: string | null;
  /** The actor's email as known at the time (kept when the account is later renamed or removed). */
  actorEmail: string;
  /** The client address the action came from. */
  address: string;
  /** What was acted on (an admin, transaction, receipt or device id), when anything was. */
  target?: string | null;
  /** What changed (for example `{ role: { from: "viewer", to: "finance" } }`): ids and figures, ≤ 4 KB. */
  changes?: Record<string, unknown>;
}

/** The most entries one cause may write with it. */
export const MAX_AUDIT_PER_CAUSE = 5;

/** What a cause's storage call takes to write its audit entries in its own atomic step. */
export interface WithAudit {
  /** At most {@link MAX_AUDIT_PER_CAUSE}; written only when the cause is. */
  audit?: readonly AuditInput[];
}

/** Which entries {@link AuditRepository.list} answers; every field narrows. */
export interface AuditFilter {
  actorId?: string;
  action?: AuditAction;
  /** ISO 8601: entries at or after. */
  from?: string;
  /** ISO 8601: entries before (exclusive). */
  to?: string;
}

/** The audit log: append and read, nothing else. */
export interface AuditRepository {
  /** Appends entries of actions with no write of their own, at `at` (ISO); at most 100. */
  append(entries: readonly AuditInput[], at: string): Promise<AuditEntry[]>;
  /**
   * The entries matching `filter`, newest first (by `at`, then `id`, descending), at most `limit`
   * (1..1,000); with `before`, only those after it in that order (pass the last of the previous
   * page). Work in proportion to the page, whatever the filter.
   */
  list(
    filter: AuditFilter,
    limit: number,
    before?: Pick<AuditEntry, "at" | "id"> | null,
  ): Promise<AuditEntry[]>;
}
