/**
 * Back-office admins on Deno KV.
 *
 * | key                                           | value                           | written by        |
 * |-----------------------------------------------|---------------------------------|-------------------|
 * | `["admins", id]`                              | Admin                           | create, setStatus |
 * | `["admins_by_email", email]`                  | admin id (unique: checked null) | create            |
 * | `["admins_by_status", status, createdAt, id]` | Admin (copy: one range read)    | create, setStatus |
 * | `["admins_approved"]`                         | number of approved admins       | create, setStatus |
 * | `["admins_owners"]`                           | number of approved owners       | create, setStatus, setRole |
 *
 * Every write of an admin writes its index keys in the same commit (KV has no indexes of its own).
 * `create` checks the email key as read (absent: the email is unique) and, when the decision
 * depends on it, the `["admins_approved"]` counter: two first registrations at once cannot both
 * see zero. `listByStatus` is one range read, oldest first (ISO instants sort by time). Every
 * write that changes the number of approved owners checks `["admins_owners"]` as read, so two
 * owners demoting each other at once cannot leave none: the second commit re-reads and refuses.
 * (Stores written before roles get their roles and this count from the `admin-roles` data
 * migration, `migrations.ts`.)
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import {
  autoApproved,
  canonicalAdmin,
  checkRole,
  isActiveOwner,
  isoInstant,
  normalizeEmail,
  roleAfter,
} from "@/lib/storage/records.ts";
import { canonicalMessages } from "@/lib/storage/outbox_records.ts";
import { MAX_MESSAGES_PER_CAUSE } from "@/lib/storage/outbox_types.ts";
import {
  type Admin,
  type AdminRepository,
  type AuditEntry,
  EmailTakenError,
  LastOwnerError,
} from "@/lib/storage/types.ts";
import { addMessages, messageKeys } from "./outbox.ts";
import { addAudit } from "./audit.ts";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";

/** The first key part of every admin. */
export const ADMINS = "admins";
/** The unique email index: email to admin id. */
const ADMINS_BY_EMAIL = "admins_by_email";
/** Admins by status, then creation time: copies, so a listing is one range read. */
const ADMINS_BY_STATUS = "admins_by_status";
/** The number of approved admins, for `approveIfFirst`. */
export const ADMINS_APPROVED: Deno.KvKey = ["admins_approved"];
/** The number of approved owners: never brought to zero. */
export const ADMINS_OWNERS: Deno.KvKey = ["admins_owners"];

/** +1, 0 or -1: how a change from `before` to `after` moves the number of approved owners. */
const ownerDelta = (before: Admin | null, after: Admin) =>
  Number(isActiveOwner(after)) - Number(isActiveOwner(before));

export const statusKey = (
  admin: Admin,
): Deno.KvKey => [ADMINS_BY_STATUS, admin.status, admin.createdAt, admin.id];

/** The {@link AdminRepository} of the store on `ctx`. */
export function kvAdmins({ kv }: KvContext): AdminRepository {
  const admins: AdminRepository = {
    async create(input, options = {}) {
      const given = canonicalAdmin(input);
      const messages = canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE);
      const emailKey = [ADMINS_BY_EMAIL, given.email];
      const idKey = [ADMINS, given.id];
      return await untilCommitted(async () => {
        const [byEmail, byId, approved, owners, ...messageEntries] = await retryWhileLocked(() =>
          kv.getMany<unknown[]>([emailKey, idKey, ADMINS_APPROVED, ADMINS_OWNERS, ...messageKeys(messages)])
        ) as [
          Deno.KvEntryMaybe<string>,
          Deno.KvEntryMaybe<Admin>,
          Deno.KvEntryMaybe<number>,
          Deno.KvEntryMaybe<number>,
          ...Deno.KvEntryMaybe<unknown>[],
        ];
        if (byEmail.value !== null) throw new EmailTakenError(given.email);
        if (byId.value !== null) throw new Error(`an admin with the id ${given.id} exists`);
        const approvedCount = approved.value ?? 0;
        const admin = options.approveIfFirst && approvedCount === 0 ? autoApproved(given) : given;
        const ok = await commit(() => {
          const op = kv.atomic()
            .check(byEmail, byId)
            .set(idKey, admin)
            .set(emailKey, admin.id)
            .set(statusKey(admin), admin);
          // The approved count is checked whenever the decision read it or this admin changes it:
          // a racing first registration (or approval) makes this commit fail and decide again.
          if (options.approveIfFirst || admin.status === "approved") op.check(approved);
          if (admin.status === "approved") op.set(ADMINS_APPROVED, approvedCount + 1);
          if (isActiveOwner(admin)) op.check(owners).set(ADMINS_OWNERS, (owners.value ?? 0) + 1);
          // The messages are for an admin awaiting approval: none for one approved at once.
          if (admin.status === "pending") addMessages(op, messageEntries, messages, admin.createdAt);
          return op;
        });
        return ok ? admin : RETRY;
      });
    },

    async get(id) {
      return (await retryWhileLocked(() => kv.get<Admin>([ADMINS, id]))).value;
    },

    async getByEmail(email) {
      const id =
        (await retryWhileLocked(() => kv.get<string>([ADMINS_BY_EMAIL, normalizeEmail(email)]))).value;
      return id === null ? null : await admins.get(id);
    },

    async listByStatus(status) {
      return await retryWhileLocked(async () => {
        const out: Admin[] = [];
        for await (const entry of kv.list<Admin>({ prefix: [ADMINS_BY_STATUS, status] })) {
          out.push(entry.value);
        }
        return out;
      });
    },

    async setStatus(id, status, decidedBy, decidedAt, expected, options = {}) {
      const at = isoInstant(decidedAt, "decidedAt");
      const role = options.role === undefined ? undefined : checkRole(options.role);
      const audit = auditEntries(options.audit, at, MAX_AUDIT_PER_CAUSE);
      return await write(id, (before) => {
        // Checked against the value read; the commit checks that value's versionstamp, so a
        // decision committed in between makes this one read again and find the status changed.
        if (expected !== undefined && before.status !== expected) return null;
        return canonicalAdmin({
          ...before,
          status,
          role: roleAfter(before, status, role),
          decidedBy,
          decidedAt: at,
        });
      }, audit);
    },

    async setRole(id, input, at, options = {}) {
      const role = checkRole(input);
      const audit = auditEntries(options.audit, isoInstant(at, "at"), MAX_AUDIT_PER_CAUSE);
      return await write(id, (before) => before.status === "approved" ? { ...before, role } : null, audit);
    },
  };
  /**
   * Writes `change(admin as read)` (null: nothing to write, answers null) with its index keys, the
   * approved and owner counts, and `audit`, checked against everything read; throws
   * LastOwnerError rather than leave no approved owner.
   */
  async function write(
    id: string,
    change: (before: Admin) => Admin | null,
    audit: AuditEntry[],
  ): Promise<Admin | null> {
    const idKey = [ADMINS, id];
    return await untilCommitted(async () => {
      const [entry, approved, owners] = await retryWhileLocked(() =>
        kv.getMany<[Admin, number, number]>([idKey, ADMINS_APPROVED, ADMINS_OWNERS])
      );
      if (entry.value === null) return null;
      const before = entry.value;
      const after = change(before);
      if (after === null) return null;
      const delta = (after.status === "approved" ? 1 : 0) - (before.status === "approved" ? 1 : 0);
      const ownersDelta = ownerDelta(before, after);
      if (ownersDelta < 0 && (owners.value ?? 0) + ownersDelta < 1) throw new LastOwnerError();
      const ok = await commit(() => {
        const op = kv.atomic().check(entry).delete(statusKey(before)).set(statusKey(after), after)
          .set(idKey, after);
        if (delta !== 0) op.check(approved).set(ADMINS_APPROVED, (approved.value ?? 0) + delta);
        if (ownersDelta !== 0) op.check(owners).set(ADMINS_OWNERS, (owners.value ?? 0) + ownersDelta);
        return addAudit(op, audit);
      });
      return ok ? after : RETRY;
    });
  }

  return admins;
}
