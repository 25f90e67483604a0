/**
 * Donors' sign-in links and sessions as both backends store them (checked, canonical), so the two
 * cannot disagree on what a record looks like; the contract suite checks both answer the same.
 *
 * @module
 */

import { isoInstant, isoInstantOrNull } from "./records.ts";
import type { DonorSession, DonorSignIn } from "./donor_session_types.ts";

const HASH = /^[0-9a-f]{64}$/;
// The shape of a normalized address; what a real address is, is the form's concern.
const EMAIL = /^[^\s@A-Z]{1,64}@[^\s@A-Z]{1,255}$/;

function checkCommon(hash: string, email: string, createdAt: string, expiresAt: string) {
  if (!HASH.test(hash)) throw new RangeError("hash must be a hex SHA-256");
  if (!EMAIL.test(email)) throw new RangeError(`email is not a normalized address: ${JSON.stringify(email)}`);
  const created = isoInstant(createdAt, "createdAt");
  const expires = isoInstant(expiresAt, "expiresAt");
  if (Date.parse(expires) <= Date.parse(created)) throw new RangeError("expiresAt must be after createdAt");
  return { created, expires };
}

/** A sign-in link as both backends store it; throws RangeError on a malformed one. */
export function canonicalDonorSignIn(s: DonorSignIn): DonorSignIn {
  const { created, expires } = checkCommon(s.hash, s.email, s.createdAt, s.expiresAt);
  return {
    hash: s.hash,
    email: s.email,
    createdAt: created,
    expiresAt: expires,
    usedAt: isoInstantOrNull(s.usedAt, "usedAt"),
  };
}

/** A session as both backends store it; throws RangeError on a malformed one. */
export function canonicalDonorSession(s: DonorSession): DonorSession {
  const { created, expires } = checkCommon(s.hash, s.email, s.createdAt, s.expiresAt);
  return {
    hash: s.hash,
    email: s.email,
    createdAt: created,
    expiresAt: expires,
    revokedAt: isoInstantOrNull(s.revokedAt, "revokedAt"),
  };
}
