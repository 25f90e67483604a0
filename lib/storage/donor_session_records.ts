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
  if (s.scope === "manage") {
    // A donor id as storage holds them (`lib/core/ids.ts` makes 24 characters; imports keep theirs).
    if (typeof s.donorId !== "string" || s.donorId.length === 0 || s.donorId.length > 100) {
      throw new RangeError("a manage session names its donor record");
    }
  } else if (s.scope !== "full") {
    throw new RangeError(`scope must be full or manage: ${JSON.stringify(s.scope)}`);
  } else if (s.donorId !== null) throw new RangeError("a full session names no donor record");
  return {
    hash: s.hash,
    email: s.email,
    createdAt: created,
    expiresAt: expires,
    revokedAt: isoInstantOrNull(s.revokedAt, "revokedAt"),
    scope: s.scope,
    donorId: s.donorId,
  };
}

/**
 * Which of an address's `sessions` to delete so that it keeps at most `keep`: revoked ones and those
 * expired at `now` go first, then the oldest. The KV backend chooses by this rule; PostgreSQL's
 * statement orders the same way.
 */
export function sessionsBeyondLimit(
  sessions: readonly DonorSession[],
  keep: number,
  now: string,
): DonorSession[] {
  const ended = (s: DonorSession) => s.revokedAt !== null || Date.parse(s.expiresAt) <= Date.parse(now);
  // Kept first: live before ended, newer before older (the hash settles a tie).
  const order = [...sessions].sort((a, b) =>
    Number(ended(a)) - Number(ended(b)) ||
    (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.hash < b.hash ? 1 : -1)
  );
  return order.slice(keep);
}
