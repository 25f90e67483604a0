/**
 * The museum's settings on Deno KV.
 *
 * | key                   | value                                 | written by |
 * |-----------------------|---------------------------------------|------------|
 * | `["museum_settings"]` | MuseumSettings (`museum_records.ts`)  | save       |
 *
 * One key: the settings are one small record (under 48 KB, `MUSEUM_LIMITS`) read whole by every
 * page that shows a level. `save` reads it, compares its version with the one the owner's change
 * was made from and commits with a check of the versionstamp it read (absent: `null`), its audit
 * entry in the same commit, so of two owners saving at once one writes and the other is told.
 *
 * @module
 */

import { commit, retryWhileLocked } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { addAudit } from "./audit.ts";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import { canonicalMuseumSettings } from "@/lib/storage/museum_records.ts";
import type { MuseumSettings, MuseumSettingsRepository } from "@/lib/storage/museum_types.ts";

const KEY = ["museum_settings"];

/** The {@link MuseumSettingsRepository} of the store on `ctx`. */
export function kvMuseum({ kv }: KvContext): MuseumSettingsRepository {
  return {
    async get() {
      return (await retryWhileLocked(() => kv.get<MuseumSettings>(KEY))).value;
    },

    async save(input, expected, at, by, options = {}) {
      const settings = canonicalMuseumSettings(input, expected + 1, at, by);
      const audit = auditEntries(options.audit, settings.updatedAt!, MAX_AUDIT_PER_CAUSE);
      const entry = await retryWhileLocked(() => kv.get<MuseumSettings>(KEY));
      if ((entry.value?.version ?? 0) !== expected) return null;
      // Checked against what was read: a save in between makes this one answer null.
      const ok = await commit(() => addAudit(kv.atomic().check(entry).set(KEY, settings), audit));
      return ok ? settings : null;
    },
  };
}
