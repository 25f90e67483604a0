/**
 * The checks both backends run on two-factor input (`two_factor_types.ts`): each throws RangeError on
 * input no caller of the contract may give.
 *
 * @module
 */

import { checkInteger, isoInstant } from "./records.ts";
import { MAX_RECOVERY_CODES } from "./two_factor_types.ts";

const HASH = /^[0-9a-f]{64}$/;

/** Throws RangeError unless `id` is an admin id (1..100 characters). */
export function checkAdminId(id: string): string {
  if (typeof id !== "string" || id.length === 0 || id.length > 100) {
    throw new RangeError(`adminId must be 1..100 characters: ${JSON.stringify(id)}`);
  }
  return id;
}

/** Throws RangeError unless `sealed` is a sealed secret's text (1..500 characters). */
export function checkSealedSecret(sealed: string): string {
  if (typeof sealed !== "string" || sealed.length === 0 || sealed.length > 500) {
    throw new RangeError("sealedSecret must be 1..500 characters");
  }
  return sealed;
}

/** Throws RangeError unless `hash` is 64 lower-case hex digits. */
export function checkRecoveryHash(hash: string): string {
  if (typeof hash !== "string" || !HASH.test(hash)) {
    throw new RangeError("a recovery hash must be 64 hex digits");
  }
  return hash;
}

/** The hashes checked, distinct, 1..{@link MAX_RECOVERY_CODES}. */
export function checkRecoveryHashes(hashes: readonly string[]): string[] {
  if (!Array.isArray(hashes) || hashes.length === 0 || hashes.length > MAX_RECOVERY_CODES) {
    throw new RangeError(`between 1 and ${MAX_RECOVERY_CODES} recovery hashes`);
  }
  const out = hashes.map(checkRecoveryHash);
  if (new Set(out).size !== out.length) throw new RangeError("recovery hashes must be distinct");
  return out;
}

/** Throws RangeError unless `step` is a TOTP time step (a non-negative safe integer). */
export const checkStep = (step: number): number => checkInteger(step, "step", 0);

/** `at` as a canonical ISO instant (RangeError otherwise). */
export const checkAt = (at: string): string => isoInstant(at, "at");
