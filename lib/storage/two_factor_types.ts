/**
 * The storage contract for the staff's two-factor sign-in (`store.twoFactor`, issue 16): per admin,
 * the TOTP secret (sealed by `lib/staff/two_factor.ts`: storage never holds it in clear), whether its
 * enrolment was confirmed, the keyed hashes of the unused recovery codes and the last time step a
 * code was accepted at (so a code is good once); and the museum-wide "required for everyone"
 * setting.
 *
 * Every change that must happen once is one conditional write: a time step is accepted only past
 * the last one, a recovery code is removed only while it is there, an enrolment is confirmed only
 * with the secret it began with. Confirmations, resets and the setting write their audit entries
 * in the same atomic step (`WithAudit`).
 *
 * Types only; the checks both backends share are in `two_factor_records.ts`.
 *
 * @module
 */

import type { WithAudit } from "./audit_types.ts";

/** One admin's two-factor state. */
export interface TwoFactorRecord {
  adminId: string;
  /** The TOTP secret, sealed (AES-GCM under a key from APP_SECRET) by `lib/auth`. */
  sealedSecret: string;
  /** ISO 8601: when the first code confirmed the enrolment; null while it waits for one. */
  enrolledAt: string | null;
  /** Keyed hashes (64 hex digits) of the recovery codes not used yet. */
  recoveryHashes: string[];
  /** The last TOTP time step accepted (0: none): a code of it or of an earlier step is refused. */
  lastStep: number;
  /** ISO 8601: the last change. */
  updatedAt: string;
}

/** What the check on every admin request needs, in one read. */
export interface TwoFactorState {
  /** Whether an owner requires two-factor for everyone. */
  required: boolean;
  /** Whether this admin's enrolment is confirmed. */
  enrolled: boolean;
}

/** The most recovery codes an admin holds. */
export const MAX_RECOVERY_CODES = 20;

/** The two-factor repository. */
export interface TwoFactorRepository {
  /** The admin's record, or null when it has none. */
  get(adminId: string): Promise<TwoFactorRecord | null>;
  /** The setting and whether the admin is enrolled, in one read. */
  state(adminId: string): Promise<TwoFactorState>;
  /**
   * Starts (or starts again) an enrolment with `sealedSecret`, unconfirmed; answers false, writing
   * nothing, when the admin is already enrolled.
   */
  begin(adminId: string, sealedSecret: string, at: string): Promise<boolean>;
  /**
   * Confirms the enrolment begun with `sealedSecret` (and no other since): stores the recovery
   * hashes and `step` as the last one used, with the audit entries. Null, writing nothing, when the
   * record is missing, already confirmed or holds another secret.
   */
  confirm(
    adminId: string,
    sealedSecret: string,
    recoveryHashes: readonly string[],
    step: number,
    at: string,
    options?: WithAudit,
  ): Promise<TwoFactorRecord | null>;
  /** Accepts TOTP time `step` for an enrolled admin only when it is past the last one accepted. */
  useStep(adminId: string, step: number, at: string): Promise<boolean>;
  /** Uses up the recovery code with `hash` for an enrolled admin; false when it is not (or no longer) there. */
  useRecoveryCode(adminId: string, hash: string, at: string): Promise<boolean>;
  /**
   * Replaces an enrolled admin's recovery codes with `recoveryHashes`, accepting TOTP time `step`
   * (the code that proved the phone) in the same write, with the audit entries; false, writing
   * nothing, when the admin is not enrolled or `step` is not past the last one accepted.
   */
  replaceRecoveryCodes(
    adminId: string,
    step: number,
    recoveryHashes: readonly string[],
    at: string,
    options?: WithAudit,
  ): Promise<boolean>;
  /**
   * Removes an enrolled admin's two-factor on their own request, accepting TOTP time `step` in the
   * same write (as {@link replaceRecoveryCodes}), with the audit entries; false, writing nothing,
   * when the admin is not enrolled or `step` is not past the last one accepted.
   */
  disable(adminId: string, step: number, at: string, options?: WithAudit): Promise<boolean>;
  /** Removes the admin's two-factor (enrolled or begun); false, writing nothing (no entry), when it had none. */
  reset(adminId: string, at: string, options?: WithAudit): Promise<boolean>;
  /** Whether an owner requires two-factor for everyone (false until set). */
  required(): Promise<boolean>;
  /**
   * Sets the museum-wide requirement; answers the value before. The audit entries are written, with
   * the change, only when the value changes.
   */
  setRequired(required: boolean, at: string, options?: WithAudit): Promise<boolean>;
}
