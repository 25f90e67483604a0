/**
 * Card-update attempts as both backends store them (checked, canonical), so the two cannot disagree
 * on what a record looks like; the contract suite checks both answer the same.
 *
 * @module
 */

import { isoInstant } from "./records.ts";
import type { CardUpdate, CardUpdateStatus } from "./card_update_types.ts";

/** Ids, keys and references: printable, no spaces, bounded (they are KV key parts). */
const REF = /^[A-Za-z0-9_.:-]{1,128}$/;
const STATUSES: readonly CardUpdateStatus[] = ["open", "applied", "declined", "failed"];
/** At most this many donor records per attempt (one since issue 23: the gift's own record). */
const MAX_DONOR_IDS = 200;

/** Throws RangeError unless `value` is a reference-shaped string. */
export function checkRef(value: unknown, what: string): string {
  if (typeof value !== "string" || !REF.test(value)) {
    throw new RangeError(`${what} must be 1..128 letters, digits or _.:-: ${JSON.stringify(value)}`);
  }
  return value;
}

/** Throws RangeError unless `status` is a card-update status. */
export function checkCardUpdateStatus(status: unknown): CardUpdateStatus {
  if (!STATUSES.includes(status as CardUpdateStatus)) {
    throw new RangeError(`unknown card update status ${JSON.stringify(status)}`);
  }
  return status as CardUpdateStatus;
}

/** A card-update attempt as both backends store it; throws RangeError on a malformed one. */
export function canonicalCardUpdate(u: CardUpdate): CardUpdate {
  if (!Array.isArray(u.donorIds) || u.donorIds.length === 0 || u.donorIds.length > MAX_DONOR_IDS) {
    throw new RangeError(`donorIds must hold 1..${MAX_DONOR_IDS} ids`);
  }
  const language = String(u.language);
  if (!/^[a-z]{2}$/.test(language)) throw new RangeError("language must be a two-letter code");
  return {
    id: checkRef(u.id, "id"),
    subscriptionId: checkRef(u.subscriptionId, "subscriptionId"),
    donorIds: u.donorIds.map((id) => checkRef(id, "donorIds[]")),
    provider: checkRef(u.provider, "provider"),
    providerRef: u.providerRef === null ? null : checkRef(u.providerRef, "providerRef"),
    userKey: checkRef(u.userKey, "userKey"),
    confirmationKey: u.confirmationKey === null ? null : checkRef(u.confirmationKey, "confirmationKey"),
    language,
    status: checkCardUpdateStatus(u.status),
    statusCode: u.statusCode === null ? null : checkRef(u.statusCode, "statusCode"),
    createdAt: isoInstant(u.createdAt, "createdAt"),
    updatedAt: isoInstant(u.updatedAt, "updatedAt"),
  };
}
