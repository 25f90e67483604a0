/**
 * Feature flags on Deno KV.
 *
 * | key               | value                    | written by |
 * |-------------------|--------------------------|------------|
 * | `["flags", name]` | `{ enabled, updatedAt }` | set, seed  |
 *
 * The name lives in the key only. KV orders string key parts by their UTF-8 bytes, so a
 * `["flags"]` listing comes back sorted by name in the same order as PostgreSQL's `collate "C"`.
 * `seed` commits each flag only while its key is absent, so a restart never overwrites a value an
 * operator changed. `change` (an owner's switch in the back office) commits only while the flag is
 * still the value the owner saw, with its audit entry in the same commit.
 *
 * @module
 */

import { commit, retryWhileLocked } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { addAudit } from "./audit.ts";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import { isoInstant } from "@/lib/storage/records.ts";
import type { FeatureFlag, FlagRepository } from "@/lib/storage/types.ts";

/** The first key part of every flag. */
const FLAGS = "flags";

/** The stored value of a `["flags", name]` key; the name lives in the key only. */
interface FlagValue {
  enabled: boolean;
  updatedAt: string;
}

const toFlag = (flag: string, value: FlagValue): FeatureFlag => ({
  flag,
  enabled: value.enabled,
  updatedAt: value.updatedAt,
});

/** The {@link FlagRepository} of the store on `ctx`. */
export function kvFlags({ kv }: KvContext): FlagRepository {
  return {
    list() {
      // Retried as a whole: a listing interrupted half way restarts from the first key.
      return retryWhileLocked(async () => {
        const out: FeatureFlag[] = [];
        for await (const entry of kv.list<FlagValue>({ prefix: [FLAGS] })) {
          out.push(toFlag(entry.key[1] as string, entry.value));
        }
        return out;
      });
    },

    async get(flag) {
      const entry = await retryWhileLocked(() => kv.get<FlagValue>([FLAGS, flag]));
      return entry.value === null ? null : toFlag(flag, entry.value);
    },

    async set(flag, enabled) {
      const value: FlagValue = { enabled, updatedAt: new Date().toISOString() };
      await retryWhileLocked(() => kv.set([FLAGS, flag], value));
      return toFlag(flag, value);
    },

    async change(flag, enabled, expected, at, options = {}) {
      const when = isoInstant(at, "at");
      const audit = auditEntries(options.audit, when, MAX_AUDIT_PER_CAUSE);
      const key = [FLAGS, flag];
      const entry = await retryWhileLocked(() => kv.get<FlagValue>(key));
      if ((entry.value === null ? null : entry.value.enabled) !== expected) return null;
      const value: FlagValue = { enabled, updatedAt: when };
      // Checked against the version read: a change in between makes this one answer null.
      const ok = await commit(() => addAudit(kv.atomic().check(entry).set(key, value), audit));
      return ok ? toFlag(flag, value) : null;
    },

    async seed(defaults) {
      const updatedAt = new Date().toISOString();
      // One atomic operation per flag, each committing only while the key is still absent: a racing
      // instance's insert or an operator's change always wins, and a lost race is not an error.
      // (One operation for all flags would fail as a whole as soon as any flag exists.)
      await Promise.all(
        Object.entries(defaults).map(async ([flag, enabled]) => {
          const key = [FLAGS, flag];
          // `ok: false` means the flag exists: the expected outcome on every start after the first.
          await retryWhileLocked(() =>
            kv.atomic()
              .check({ key, versionstamp: null })
              .set(key, { enabled, updatedAt } satisfies FlagValue)
              .commit()
          );
        }),
      );
    },
  };
}
