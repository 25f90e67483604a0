/**
 * The audit log as the API answers it (`GET /api/audit`, `GET /api/audit/actors`) and the back office's
 * island reads it: its actions, an entry, a page and the staff it names. Storage keeps the same entries
 * (`lib/storage/audit_types.ts` re-exports them).
 *
 * @module
 */

/** Every action the log records. */
export const AUDIT_ACTIONS = [
  "sign-in",
  "sign-in-failed",
  "admin-approved",
  "admin-rejected",
  "role-changed",
  "admin-deactivated",
  "two-factor-enrolled",
  "two-factor-reset",
  "two-factor-recovery-codes",
  "two-factor-disabled",
  "two-factor-required",
  "refund",
  "receipt-resent",
  "export",
  "flag-changed",
  "museum-settings-changed",
  "member-card-resent",
  "member-checked-in",
  "member-check-in-override",
  "membership-cardholders-changed",
  "kiosk-paired",
  "kiosk-revoked",
] as const;

/** One of {@link AUDIT_ACTIONS}. */
export type AuditAction = typeof AUDIT_ACTIONS[number];

/** An entry as stored. */
export interface AuditEntry {
  /** Unique; entries sort by `at`, then `id`. */
  id: string;
  /** ISO 8601: when the action happened (its cause's time). */
  at: string;
  action: AuditAction;
  actorId: string | null;
  actorEmail: string;
  address: string;
  target: string | null;
  changes: Record<string, unknown>;
}

/** One page of the log. */
export interface AuditPage {
  data: AuditEntry[];
  nextCursor: string | null;
}

/** An admin as the audit log's "who" filter lists it. */
export interface AuditActor {
  id: string;
  email: string;
  name: string;
}
