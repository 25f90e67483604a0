/**
 * Who did a staff action, and from where (issue 16): the audit entry's actor, shared by every
 * domain module that records one (staff changes, kiosks, receipts, settings, exports). Types and
 * one pure helper only, so any module may import it without pulling in the accounts code.
 *
 * @module
 */

import type { AuditAction, AuditInput } from "@/lib/storage/audit_types.ts";
import type { Admin } from "@/lib/storage/types.ts";

/** Who acts, and from where: the audit entry's actor. */
export interface Actor {
  admin: Admin;
  /** The client address of the request (`lib/http/client_address.ts`). */
  address: string;
}

/**
 * The audit entry of `actor` doing `action` on `target` (an id, or null), with what changed.
 *
 * @example
 * ```ts
 * await store.audit.append([actorEntry(actor, "export", null, { kind: "transactions" })], now);
 * ```
 */
export function actorEntry(
  actor: Actor,
  action: AuditAction,
  target: string | null,
  changes: Record<string, unknown> = {},
): AuditInput {
  return {
    action,
    actorId: actor.admin.id,
    actorEmail: actor.admin.email,
    address: actor.address,
    target,
    changes,
  };
}
