/**
 * The audit log's records, the same on both backends: an input checked and made an entry (its id
 * and time), and a filter checked. Deno KV and PostgreSQL store exactly what these answer.
 *
 * @module
 */

import { isoInstant } from "./records.ts";
import {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditEntry,
  type AuditFilter,
  type AuditInput,
} from "./audit_types.ts";

const ACTIONS: ReadonlySet<string> = new Set(AUDIT_ACTIONS);
/** Field limits: an address (IPv6 with a zone fits), an email, an id, the changes as UTF-8 JSON. */
const MAX_ADDRESS = 100;
const MAX_EMAIL = 254;
const MAX_TARGET = 200;
const MAX_CHANGES_BYTES = 4_000;

function text(value: unknown, what: string, max: number, allowEmpty = true): string {
  if (typeof value !== "string" || value.length > max || (!allowEmpty && value === "")) {
    throw new RangeError(`audit ${what} must be a string of ${allowEmpty ? 0 : 1}..${max} characters`);
  }
  return value;
}

/** Throws RangeError unless `action` is one the log records. */
export function checkAction(action: unknown): AuditAction {
  if (typeof action !== "string" || !ACTIONS.has(action)) {
    throw new RangeError(`unknown audit action ${JSON.stringify(action)}`);
  }
  return action as AuditAction;
}

/** A time-ordered unique id: the instant's milliseconds (hex, fixed width) and 64 random bits. */
function auditId(at: string): string {
  const random = Array.from(
    crypto.getRandomValues(new Uint8Array(8)),
    (b) => b.toString(16).padStart(2, "0"),
  );
  return Date.parse(at).toString(16).padStart(12, "0") + random.join("");
}

/** The entry stored for `input` at `at`: checked and copied to exactly the stored fields. */
export function auditEntry(input: AuditInput, at: string): AuditEntry {
  const changes = input.changes ?? {};
  if (changes === null || typeof changes !== "object" || Array.isArray(changes)) {
    throw new RangeError("audit changes must be an object");
  }
  const json = JSON.stringify(changes);
  if (new TextEncoder().encode(json).length > MAX_CHANGES_BYTES) {
    throw new RangeError(`audit changes are larger than ${MAX_CHANGES_BYTES} bytes`);
  }
  const when = isoInstant(at, "at");
  return {
    id: auditId(when),
    at: when,
    action: checkAction(input.action),
    actorId: input.actorId === null ? null : text(input.actorId, "actorId", MAX_TARGET, false),
    actorEmail: text(input.actorEmail, "actorEmail", MAX_EMAIL),
    address: text(input.address, "address", MAX_ADDRESS),
    target: input.target == null ? null : text(input.target, "target", MAX_TARGET, false),
    changes: JSON.parse(json),
  };
}

/** The entries of one call, checked: at most `max`. */
export function auditEntries(
  inputs: readonly AuditInput[] | undefined,
  at: string,
  max: number,
): AuditEntry[] {
  const list = inputs ?? [];
  if (list.length > max) throw new RangeError(`at most ${max} audit entries in one call: ${list.length}`);
  return list.map((input) => auditEntry(input, at));
}

/** A filter checked: instants normalized, `from` not after `to`, a known action. */
export function canonicalAuditFilter(filter: AuditFilter): AuditFilter {
  const out: AuditFilter = {};
  if (filter.actorId !== undefined) out.actorId = text(filter.actorId, "actorId", MAX_TARGET, false);
  if (filter.action !== undefined) out.action = checkAction(filter.action);
  if (filter.from !== undefined) out.from = isoInstant(filter.from, "from");
  if (filter.to !== undefined) out.to = isoInstant(filter.to, "to");
  if (out.from !== undefined && out.to !== undefined && out.to < out.from) {
    throw new RangeError(`to (${out.to}) is before from (${out.from})`);
  }
  return out;
}
