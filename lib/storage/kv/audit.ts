/**
 * The audit log on Deno KV: append-only entries, each stored under four keys so that any filter of
 * actor and action is one reverse range read of its own prefix (a page costs its own size).
 *
 * | key                                                  | value      | written by          |
 * |------------------------------------------------------|------------|---------------------|
 * | `["audit", at, id]`                                  | AuditEntry | append, causes      |
 * | `["audit_by_actor", actorId, at, id]`                | AuditEntry | append, causes      |
 * | `["audit_by_action", action, at, id]`                | AuditEntry | append, causes      |
 * | `["audit_by_actor_action", actorId, action, at, id]` | AuditEntry | append, causes      |
 *
 * Copies, not pointers: an entry never changes, so the copies cannot drift. ISO instants sort by
 * time, and the period is part of each range. An entry without an actor files under actor `""`.
 * A cause writes its entries in its own commit with {@link addAudit}: ids are fresh, so no check
 * is needed. Nothing here updates or deletes an entry.
 *
 * @module
 */

import { commit, retryWhileLocked } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { batchLimit } from "@/lib/storage/queries.ts";
import { auditEntries, canonicalAuditFilter } from "@/lib/storage/audit_records.ts";
import type { AuditEntry, AuditFilter, AuditRepository } from "@/lib/storage/audit_types.ts";

/** The most entries one `append` stores (four keys each: far inside KV's mutation limit). */
const MAX_APPEND = 100;

/** The key prefix of the index that answers `filter`'s actor and action. */
function prefixOf(filter: AuditFilter): Deno.KvKey {
  if (filter.actorId !== undefined && filter.action !== undefined) {
    return ["audit_by_actor_action", filter.actorId, filter.action];
  }
  if (filter.actorId !== undefined) return ["audit_by_actor", filter.actorId];
  if (filter.action !== undefined) return ["audit_by_action", filter.action];
  return ["audit"];
}

/** Adds to `op` the writes of `entries` (made by `auditEntries`); answers `op`. */
export function addAudit(op: Deno.AtomicOperation, entries: readonly AuditEntry[]): Deno.AtomicOperation {
  for (const e of entries) {
    const actor = e.actorId ?? "";
    op.set(["audit", e.at, e.id], e)
      .set(["audit_by_actor", actor, e.at, e.id], e)
      .set(["audit_by_action", e.action, e.at, e.id], e)
      .set(["audit_by_actor_action", actor, e.action, e.at, e.id], e);
  }
  return op;
}

/** The {@link AuditRepository} of the store on `ctx`. */
export function kvAudit({ kv }: KvContext): AuditRepository {
  return {
    async append(inputs, at) {
      const entries = auditEntries(inputs, at, MAX_APPEND);
      for (let i = 0; i < entries.length; i += 20) {
        const ok = await commit(() => addAudit(kv.atomic(), entries.slice(i, i + 20)));
        if (!ok) throw new Error("audit entries were not written"); // no check can fail: a bug
      }
      return entries;
    },

    async list(input, limit, before) {
      const filter = canonicalAuditFilter(input);
      const n = batchLimit(limit);
      const prefix = prefixOf(filter);
      // The range ends at the earlier of `to` and the cursor (both exclusive).
      let end: Deno.KvKey | undefined = filter.to === undefined ? undefined : [...prefix, filter.to];
      if (before && (filter.to === undefined || before.at < filter.to)) {
        end = [...prefix, before.at, before.id];
      }
      const start: Deno.KvKey | undefined = filter.from === undefined ? undefined : [...prefix, filter.from];
      const selector: Deno.KvListSelector = start && end
        ? { start, end }
        : start
        ? { prefix, start }
        : end
        ? { prefix, end }
        : { prefix };
      const out: AuditEntry[] = [];
      await retryWhileLocked(async () => {
        out.length = 0;
        for await (const e of kv.list<AuditEntry>(selector, { reverse: true, limit: n })) out.push(e.value);
      });
      return out;
    },
  };
}
