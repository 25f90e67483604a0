/**
 * The storage contract for kiosk devices (issue 13): the card-terminal kiosks an approved admin
 * registered in the back office and paired, whose device credential terminal sales require.
 * Re-exported by `types.ts`. Only hashes of the two secrets are kept: the one-time pairing code
 * (short-lived, single use) and the device credential (long-lived, in the kiosk's cookie), as
 * refresh tokens are; a copy of the store gives nobody a way to start a sale.
 *
 * @module
 */

import type { WithAudit } from "./audit_types.ts";

/** A kiosk device as stored. */
export interface KioskDevice {
  /** A random id (`lib/core/ids.ts`). */
  id: string;
  /** What staff call it, e.g. "Entrance hall". */
  name: string;
  /** The shop whose kiosk page (`/{lang}/terminal-payment/{shop}`) it may take sales for. */
  shopNumber: string;
  /** The card terminal of that shop (`TERMINALS`, or the sandbox's `sim-{shop}`). */
  terminalId: string;
  /** The approved admin who created it. */
  createdBy: string;
  createdAt: string;
  /** Hex SHA-256 of the current pairing code; null once used (or never issued). */
  pairingCodeHash: string | null;
  /** When the current pairing code stops working; null with no code. */
  pairingExpiresAt: string | null;
  /** Hex SHA-256 of the device credential; null until paired. A new pairing replaces it. */
  credentialHash: string | null;
  pairedAt: string | null;
  /** The last sale (or pairing) it authorised, updated at most once a minute or so. */
  lastUsedAt: string | null;
  /** When an admin revoked it; a revoked device authorises nothing and cannot be paired again. */
  revokedAt: string | null;
}

/** Kiosk devices: created, paired with a one-time code, used, revoked. */
export interface KioskDeviceRepository {
  /** Stores a new device; throws if its id exists. */
  create(device: KioskDevice): Promise<void>;
  get(id: string): Promise<KioskDevice | null>;
  /** Every device, newest first (a museum has a handful; at most 1,000 are answered). */
  list(): Promise<KioskDevice[]>;
  /**
   * Gives a device a new pairing code (the earlier one stops working). Answers the device, or
   * null when it is unknown or revoked (then no `audit` entry is written either; otherwise it is,
   * at `at`, in the same atomic step).
   */
  setPairingCode(
    id: string,
    codeHash: string,
    expiresAt: string,
    options?: WithAudit & { at?: string },
  ): Promise<KioskDevice | null>;
  /**
   * Pairs, atomically: the device whose current, unexpired (`expiresAt > now`) pairing code has
   * this hash, not revoked, gets the credential (replacing any earlier one) and loses the code, so
   * of two uses of one code exactly one succeeds. Answers the paired device, or null.
   */
  pair(codeHash: string, credentialHash: string, now: string): Promise<KioskDevice | null>;
  /** The device holding this credential (revoked ones too: the caller says why it refuses). */
  byCredential(credentialHash: string): Promise<KioskDevice | null>;
  /**
   * Records a use: sets `lastUsedAt = at` unless it is already later than `at - minIntervalMs`
   * (so a busy kiosk writes at most once per interval).
   */
  touch(id: string, at: string, minIntervalMs: number): Promise<void>;
  /**
   * Revokes a device (its credential and pairing code stop working; the first revocation time is
   * kept). Answers the device, or null when it is unknown. `audit` is written in the same atomic
   * step only by the call that revokes it (revoking again writes none).
   */
  revoke(id: string, at: string, options?: WithAudit): Promise<KioskDevice | null>;
}
