/**
 * Back-office admins on Deno KV.
 *
 * | key                                           | value                           | written by        |
 * |-----------------------------------------------|---------------------------------|-------------------|
 * | `["admins", id]`                              | Admin                           | create, setStatus |
 * | `["admins_by_email", email]`                  | admin id (unique: checked null) | create            |
 * | `["admins_by_status", status, createdAt, id]` | Admin (copy: one range read)    | create, setStatus |
 * | `["admins_approved"]`                         | number of approved admins       | create, setStatus |
 *
 * Every write of an admin writes its index keys in the same commit (KV has no indexes of its own).
 * `create` checks the email key as read (absent: the email is unique) and, when the decision
 * depends on it, the `["admins_approved"]` counter: two first registrations at once cannot both
 * see zero. `listByStatus` is one range read, oldest first (ISO instants sort by time).
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { autoApproved, canonicalAdmin, isoInstant, normalizeEmail } from "../records.ts";
import { canonicalMessages } from "../outbox_records.ts";
import { MAX_MESSAGES_PER_CAUSE } from "../outbox_types.ts";
import { type Admin, type AdminRepository, EmailTakenError } from "../types.ts";
import { addMessages, messageKeys } from "./outbox.ts";
import { addAudit } from "./audit.ts";
import { auditEntries } from "../audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "../audit_types.ts";

/** The first key part of every admin. */
const ADMINS = "admins";
/** The unique email index: email to admin id. */
const ADMINS_BY_EMAIL = "admins_by_email";
/** Admins by status, then creation time: copies, so a listing is one range read. */
const ADMINS_BY_STATUS = "admins_by_status";
/** The number of approved admins, for `approveIfFirst`. */
const ADMINS_APPROVED: Deno.KvKey = ["admins_approved"];

const statusKey = (admin: Admin): Deno.KvKey => [ADMINS_BY_STATUS, admin.status, admin.createdAt, admin.id];

/** The {@link AdminRepository} of the store on `ctx`. */
export function kvAdmins({ kv }: KvContext): AdminRepository {
  const admins: AdminRepository = {
    async create(input, options = {}) {
      const given = canonicalAdmin(input);
      const messages = canonicalMessages(options.messages, MAX_MESSAGES_PER_CAUSE);
      const emailKey = [ADMINS_BY_EMAIL, given.email];
      const idKey = [ADMINS, given.id];
      return await untilCommitted(async () => {
        const [byEmail, byId, approved, ...messageEntries] = await retryWhileLocked(() =>
          kv.getMany<unknown[]>([emailKey, idKey, ADMINS_APPROVED, ...messageKeys(messages)])
        ) as [
          Deno.KvEntryMaybe<string>,
          Deno.KvEntryMaybe<Admin>,
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
      const idKey = [ADMINS, id];
      const at = isoInstant(decidedAt, "decidedAt");
      const audit = auditEntries(options.audit, at, MAX_AUDIT_PER_CAUSE);
      return await untilCommitted(async () => {
        const [entry, approved] = await retryWhileLocked(() =>
          kv.getMany<[Admin, number]>([idKey, ADMINS_APPROVED])
        );
        if (entry.value === null) return null;
        // Checked against the value read; the commit checks that value's versionstamp, so a
        // decision committed in between makes this one read again and find the status changed.
        if (expected !== undefined && entry.value.status !== expected) return null;
        const before = entry.value;
        const after: Admin = { ...before, status, decidedBy, decidedAt: at };
        const delta = (after.status === "approved" ? 1 : 0) - (before.status === "approved" ? 1 : 0);
        const ok = await commit(() => {
          const op = kv.atomic().check(entry).delete(statusKey(before)).set(statusKey(after), after).set(
            idKey,
            after,
          );
          if (delta !== 0) op.check(approved).set(ADMINS_APPROVED, (approved.value ?? 0) + delta);
          return addAudit(op, audit);
        });
        return ok ? after : RETRY;
      });
    },
  };
  return admins;
}
