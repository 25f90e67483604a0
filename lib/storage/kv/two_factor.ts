/**
 * The staff's two-factor sign-in on Deno KV.
 *
 * | key                         | value           | written by                                      |
 * |-----------------------------|-----------------|-------------------------------------------------|
 * | `["two_factor", adminId]`   | TwoFactorRecord | begin, confirm, useStep, useRecoveryCode, reset |
 * | `["two_factor_required"]`   | boolean         | setRequired                                     |
 *
 * One record per admin, read and rewritten whole: each change is a commit checked against the
 * record as read, so of two uses of one time step (or one recovery code) at once exactly one
 * commits; the other reads again and finds it used. `state` reads the record and the setting in
 * one `getMany`, since every admin request asks it. Audit entries go in the same commit
 * (`addAudit`).
 *
 * @module
 */

import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import {
  checkAdminId,
  checkAt,
  checkRecoveryHash,
  checkRecoveryHashes,
  checkSealedSecret,
  checkStep,
} from "@/lib/storage/two_factor_records.ts";
import type { TwoFactorRecord, TwoFactorRepository } from "@/lib/storage/two_factor_types.ts";
import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import { addAudit } from "./audit.ts";
import type { KvContext } from "./context.ts";

/** The first key part of every admin's record. */
const TWO_FACTOR = "two_factor";
/** The museum-wide requirement. */
const REQUIRED: Deno.KvKey = ["two_factor_required"];

/** The {@link TwoFactorRepository} of the store on `ctx`. */
export function kvTwoFactor({ kv }: KvContext): TwoFactorRepository {
  const keyOf = (adminId: string): Deno.KvKey => [TWO_FACTOR, checkAdminId(adminId)];

  /**
   * Reads the admin's record and commits `change(record)` checked against it (undefined: nothing
   * to write, answers false; null: delete), plus `extra` writes; answers whether it committed.
   */
  const update = (
    adminId: string,
    change: (before: TwoFactorRecord | null) => TwoFactorRecord | null | undefined,
    extra: (op: Deno.AtomicOperation) => Deno.AtomicOperation = (op) => op,
  ) => {
    const key = keyOf(adminId);
    return untilCommitted(async () => {
      const entry = await retryWhileLocked(() => kv.get<TwoFactorRecord>(key));
      const after = change(entry.value);
      if (after === undefined) return false;
      const ok = await commit(() => {
        const op = kv.atomic().check(entry);
        if (after === null) op.delete(key);
        else op.set(key, after);
        return extra(op);
      });
      return ok ? true : RETRY;
    });
  };

  return {
    async get(adminId) {
      return (await retryWhileLocked(() => kv.get<TwoFactorRecord>(keyOf(adminId)))).value;
    },

    async state(adminId) {
      const [record, required] = await retryWhileLocked(() =>
        kv.getMany<[TwoFactorRecord, boolean]>([keyOf(adminId), REQUIRED])
      );
      return { required: required.value === true, enrolled: record.value?.enrolledAt != null };
    },

    async begin(adminId, sealedSecret, at) {
      const secret = checkSealedSecret(sealedSecret);
      const when = checkAt(at);
      return await update(adminId, (before) =>
        before?.enrolledAt != null ? undefined : {
          adminId,
          sealedSecret: secret,
          enrolledAt: null,
          recoveryHashes: [],
          lastStep: 0,
          updatedAt: when,
        });
    },

    async confirm(adminId, sealedSecret, recoveryHashes, step, at, options = {}) {
      const secret = checkSealedSecret(sealedSecret);
      const hashes = checkRecoveryHashes(recoveryHashes);
      const lastStep = checkStep(step);
      const when = checkAt(at);
      const audit = auditEntries(options.audit, when, MAX_AUDIT_PER_CAUSE);
      let confirmed: TwoFactorRecord | null = null;
      await update(adminId, (before) => {
        if (!before || before.enrolledAt !== null || before.sealedSecret !== secret) return undefined;
        confirmed = { ...before, enrolledAt: when, recoveryHashes: hashes, lastStep, updatedAt: when };
        return confirmed;
      }, (op) => addAudit(op, audit));
      return confirmed;
    },

    async useStep(adminId, step, at) {
      const checked = checkStep(step);
      const when = checkAt(at);
      return await update(
        adminId,
        (before) =>
          before?.enrolledAt == null || before.lastStep >= checked
            ? undefined
            : { ...before, lastStep: checked, updatedAt: when },
      );
    },

    async useRecoveryCode(adminId, hash, at) {
      const checked = checkRecoveryHash(hash);
      const when = checkAt(at);
      return await update(
        adminId,
        (before) =>
          before?.enrolledAt == null || !before.recoveryHashes.includes(checked) ? undefined : {
            ...before,
            recoveryHashes: before.recoveryHashes.filter((h) => h !== checked),
            updatedAt: when,
          },
      );
    },

    async replaceRecoveryCodes(adminId, step, recoveryHashes, at, options = {}) {
      const checked = checkStep(step);
      const hashes = checkRecoveryHashes(recoveryHashes);
      const when = checkAt(at);
      const audit = auditEntries(options.audit, when, MAX_AUDIT_PER_CAUSE);
      return await update(
        adminId,
        (before) =>
          before?.enrolledAt == null || before.lastStep >= checked
            ? undefined
            : { ...before, recoveryHashes: hashes, lastStep: checked, updatedAt: when },
        (op) => addAudit(op, audit),
      );
    },

    async disable(adminId, step, at, options = {}) {
      const checked = checkStep(step);
      const audit = auditEntries(options.audit, checkAt(at), MAX_AUDIT_PER_CAUSE);
      return await update(
        adminId,
        (before) => before?.enrolledAt == null || before.lastStep >= checked ? undefined : null,
        (op) => addAudit(op, audit),
      );
    },

    async reset(adminId, at, options = {}) {
      const audit = auditEntries(options.audit, checkAt(at), MAX_AUDIT_PER_CAUSE);
      return await update(
        adminId,
        (before) => before === null ? undefined : null,
        (op) => addAudit(op, audit),
      );
    },

    async required() {
      return (await retryWhileLocked(() => kv.get<boolean>(REQUIRED))).value === true;
    },

    async setRequired(required, at, options = {}) {
      if (typeof required !== "boolean") throw new RangeError("required must be a boolean");
      const audit = auditEntries(options.audit, checkAt(at), MAX_AUDIT_PER_CAUSE);
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<boolean>(REQUIRED));
        const before = entry.value === true;
        if (before === required) return before;
        const ok = await commit(() => addAudit(kv.atomic().check(entry).set(REQUIRED, required), audit));
        return ok ? before : RETRY;
      });
    },
  };
}
