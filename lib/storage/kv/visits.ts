/**
 * Visits on Deno KV (issue 28): members let in at the front desk.
 *
 * | key                                        | value | written by |
 * |--------------------------------------------|-------|------------|
 * | `["visits", id]`                           | Visit | `record`   |
 * | `["visits_by_time", at, id]`               | Visit | `record`   |
 * | `["visits_by_number", number, at, id]`     | Visit | `record`, when it names a member |
 *
 * Copies, not pointers (as the audit log's): a visit never changes, so they cannot drift, and a
 * page is one range read. `record` commits only while `["visits", id]` is absent, with its audit
 * entries in the same commit, so the same id twice stores one visit and one entry.
 *
 * @module
 */
import { commit, retryWhileLocked } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { addAudit } from "./audit.ts";
import { auditEntries } from "@/lib/storage/audit_records.ts";
import { MAX_AUDIT_PER_CAUSE } from "@/lib/storage/audit_types.ts";
import { batchLimit } from "@/lib/storage/queries.ts";
import { isoInstant } from "@/lib/storage/records.ts";
import { canonicalVisit } from "@/lib/storage/visit_records.ts";
import type { Visit, VisitCursor, VisitRepository } from "@/lib/storage/visit_types.ts";

const VISITS = "visits";
const BY_TIME = "visits_by_time";
const BY_NUMBER = "visits_by_number";

/** Reads a page newest first under `prefix`, `from <= at < to`, after `before`. */
async function page(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
  range: { from: string; to: string },
  limit: number,
  before: VisitCursor | null | undefined,
): Promise<Visit[]> {
  const n = batchLimit(limit);
  const from = isoInstant(range.from, "from");
  const to = isoInstant(range.to, "to");
  if (to <= from) return [];
  // The end is exclusive: before the cursor's key, or before the first key at `to`.
  const end = before && isoInstant(before.at, "before.at") < to
    ? [...prefix, isoInstant(before.at, "before.at"), before.id]
    : [...prefix, to];
  const out: Visit[] = [];
  const iter = kv.list<Visit>({ start: [...prefix, from], end }, { reverse: true, limit: n });
  for await (const entry of iter) out.push(entry.value);
  return out;
}

/** The {@link VisitRepository} of the store on `ctx`. */
export function kvVisits({ kv }: KvContext): VisitRepository {
  return {
    async record(input, options = {}) {
      const visit = canonicalVisit(input);
      const audit = auditEntries(options.audit, visit.at, MAX_AUDIT_PER_CAUSE);
      const key = [VISITS, visit.id];
      const ok = await commit(() => {
        const op = kv.atomic().check({ key, versionstamp: null }).set(key, visit)
          .set([BY_TIME, visit.at, visit.id], visit);
        if (visit.number !== null) op.set([BY_NUMBER, visit.number, visit.at, visit.id], visit);
        return addAudit(op, audit);
      });
      if (ok) return { visit, created: true };
      const stored = await retryWhileLocked(() => kv.get<Visit>(key));
      if (!stored.value) throw new Error("visit neither stored nor found"); // visits are never deleted
      return { visit: stored.value, created: false };
    },

    async get(id) {
      return (await retryWhileLocked(() => kv.get<Visit>([VISITS, id]))).value;
    },

    listByTime(range, limit, before) {
      return retryWhileLocked(() => page(kv, [BY_TIME], range, limit, before));
    },

    listByNumber(number, limit, before) {
      const range = { from: "1970-01-01T00:00:00.000Z", to: "9999-12-31T00:00:00.000Z" };
      return retryWhileLocked(() => page(kv, [BY_NUMBER, number], range, limit, before));
    },
  };
}
