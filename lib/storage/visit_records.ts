/**
 * What a visit looks like once stored, the same on both backends (`visit_types.ts`).
 *
 * @module
 */
import { isoInstant } from "./records.ts";
import {
  MAX_VISIT_GUESTS,
  MAX_VISIT_NAME,
  MAX_VISIT_REASON,
  type Visit,
  VISIT_KINDS,
} from "./visit_types.ts";

/** A visit id: what a browser's `crypto.randomUUID()` makes fits, and nothing that needs escaping. */
export const VISIT_ID = /^[A-Za-z0-9_-]{16,64}$/;

function text(value: unknown, what: string, max: number): string {
  if (typeof value !== "string") throw new RangeError(`${what} must be a string`);
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > max) {
    throw new RangeError(`${what} must hold 1 to ${max} characters`);
  }
  return trimmed;
}

/**
 * `visit` checked and copied to exactly the stored fields; throws RangeError for what no visit can
 * be (the API checks the same before, with messages for people).
 */
export function canonicalVisit(visit: Visit): Visit {
  if (!VISIT_ID.test(visit.id)) throw new RangeError("visit id must be 16 to 64 of A-Z a-z 0-9 _ -");
  if (!VISIT_KINDS.includes(visit.kind)) throw new RangeError(`unknown visit kind: ${visit.kind}`);
  if (!Number.isSafeInteger(visit.guests) || visit.guests < 0 || visit.guests > MAX_VISIT_GUESTS) {
    throw new RangeError(`guests must be 0 to ${MAX_VISIT_GUESTS}`);
  }
  if (visit.levelId !== null && !Number.isSafeInteger(visit.levelId)) {
    throw new RangeError("levelId must be an integer or null");
  }
  const reason = visit.reason === null ? null : text(visit.reason, "reason", MAX_VISIT_REASON);
  if (visit.kind === "override" && reason === null) throw new RangeError("an override needs a reason");
  return {
    id: visit.id,
    number: visit.number === null ? null : text(visit.number, "number", 40),
    // Empty for a visitor let in with no membership and no name given.
    cardholder: visit.cardholder === "" ? "" : text(visit.cardholder, "cardholder", MAX_VISIT_NAME),
    guests: visit.guests,
    levelId: visit.levelId,
    deskId: text(visit.deskId, "deskId", 200),
    deskEmail: text(visit.deskEmail, "deskEmail", 320),
    at: isoInstant(visit.at, "at"),
    kind: visit.kind,
    reason: visit.kind === "check-in" ? null : reason,
  };
}
