/**
 * The storage contract for the museum's staff accounts (`store.admins`) and their sessions'
 * refresh tokens (`store.refreshTokens`): statuses, roles (issue 16) and the errors the admins
 * repository throws. Re-exported by `types.ts`, the one import for the whole contract.
 *
 * @module
 */

import type { WithAudit } from "./audit_types.ts";
import type { WithMessages } from "./outbox_types.ts";
import type { AdminRole } from "@/lib/shared/admin_roles.ts";

/**
 * `pending` until an owner decides; `approved` (with a role) or `rejected`; an approved admin an
 * owner `deactivated` signs in no more, and every token it holds is refused at its next use.
 */
export type AdminStatus = "approved" | "pending" | "rejected" | "deactivated";

// What an approved admin may do (issue 16): `lib/shared/admin_roles.ts`, which the browser reads too;
// `lib/staff/roles.ts` says which routes each may call.
export { ADMIN_ROLES, type AdminRole } from "@/lib/shared/admin_roles.ts";

/** A back-office account. */
export interface Admin {
  id: string;
  /** Normalized: trimmed, lower case; unique. */
  email: string;
  name: string;
  /** PHC string of the password hash (algorithm and parameters included). */
  passwordHash: string;
  status: AdminStatus;
  /** Approved and deactivated admins: the role they have (had); null while pending or rejected. */
  role: AdminRole | null;
  createdAt: string;
  /** Who approved or rejected this admin, and when (ISO 8601); null while pending. */
  decidedBy: string | null;
  decidedAt: string | null;
}

/**
 * Thrown by `admins.setStatus` and `admins.setRole` when the change would leave no approved owner
 * (someone must be able to manage roles); nothing is written.
 */
export class LastOwnerError extends Error {
  constructor() {
    super("The museum must keep at least one active owner");
    this.name = "LastOwnerError";
  }
}

/** Thrown by `admins.create` when the email is taken (the API answers 409). */
export class EmailTakenError extends Error {
  constructor(email: string) {
    super(`An account with the email ${email} already exists`);
    this.name = "EmailTakenError";
  }
}

export interface AdminRepository {
  /**
   * Stores a new admin. With `approveIfFirst`, the admin is stored `approved` as an `owner` when no
   * approved admin exists yet, and as given otherwise; decided atomically, so two first registrations at
   * once make exactly one approved admin. Throws {@link EmailTakenError} when the email is taken.
   * `messages` are enqueued in the same atomic step, only when the admin is stored `pending`.
   */
  create(admin: Admin, options?: { approveIfFirst?: boolean } & WithMessages): Promise<Admin>;
  get(id: string): Promise<Admin | null>;
  getByEmail(email: string): Promise<Admin | null>;
  /** Admins with this status, oldest first. */
  listByStatus(status: AdminStatus): Promise<Admin[]>;
  /**
   * Sets the status (and who decided, when); answers the admin as stored, or null when no admin
   * has this id or, with `expected`, its status is not `expected` when written. The check and the
   * write are one atomic step: of two concurrent decisions on a pending admin, one wins. The
   * `audit` entries are written in that step, at `decidedAt`, only when the status is.
   *
   * Approving gives `role` (`viewer` when not given); pending and rejected admins have none; a
   * deactivated admin keeps its role on record. Throws {@link LastOwnerError} rather than
   * deactivate the last approved owner.
   */
  setStatus(
    id: string,
    status: AdminStatus,
    decidedBy: string,
    decidedAt: string,
    expected?: AdminStatus,
    options?: WithAudit & { role?: AdminRole },
  ): Promise<Admin | null>;
  /**
   * Gives an approved admin `role`, with the `audit` entries (at `at`) in the same atomic step;
   * answers the admin as stored, or null when no approved admin has this id. Throws
   * {@link LastOwnerError} rather than take the role of the last approved owner.
   */
  setRole(id: string, role: AdminRole, at: string, options?: WithAudit): Promise<Admin | null>;
}

/** A refresh token as stored: only its hash, never the token. */
export interface RefreshToken {
  /** Hex SHA-256 of the opaque token. */
  hash: string;
  adminId: string;
  /** Every token rotated from the same login shares a family. */
  familyId: string;
  /**
   * When the family's first token was made (its sign-in), carried by every token rotated from it:
   * a family lives at most 30 days from it however often it is refreshed (`lib/staff/accounts.ts`).
   */
  familyStartedAt: string;
  createdAt: string;
  expiresAt: string;
  /** When it was exchanged for a new one; a second use means theft (the family is revoked). */
  usedAt: string | null;
}

export interface RefreshTokenRepository {
  create(token: RefreshToken, options?: WithAudit): Promise<void>;
  get(hash: string): Promise<RefreshToken | null>;
  /**
   * Marks a token used, atomically: answers `true` for the one call that found it unused, `false`
   * for every other (already used, or unknown).
   */
  markUsed(hash: string, usedAt: string): Promise<boolean>;
  /** Revokes a whole family: no token of it is accepted again. Idempotent. */
  revokeFamily(familyId: string, revokedAt: string): Promise<void>;
  isFamilyRevoked(familyId: string): Promise<boolean>;
  /**
   * Retention: deletes at most `limit` (1..1,000) tokens with `expiresAt < before` (ISO), used or
   * not, and answers how many. Only expiry decides: a used token stays until it expires, so
   * presenting it again is still caught as reuse for as long as it could be accepted. Safe on
   * several instances at once (each token is deleted, and counted, by one of them).
   */
  deleteExpired(before: string, limit: number): Promise<number>;
  /**
   * Retention: deletes at most `limit` (1..1,000) revoked-family markers with `revokedAt < before`
   * (ISO) and answers how many. A marker matters only while a token of its family can still be
   * accepted, so callers pass a `before` earlier than now by more than a refresh token lives.
   */
  deleteRevokedBefore(before: string, limit: number): Promise<number>;
}
