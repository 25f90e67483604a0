/**
 * Leases on PostgreSQL: a named lock with an expiry, so one instance at a time runs a job (billing,
 * reconciliation).
 *
 * Table `leases` (migration 8): one row per lease name, its holder and `expires_at` in epoch
 * milliseconds (a `bigint`, as the contract passes times). `acquire` is one
 * `insert ... on conflict do update ... where` the holder is the same or the lease expired: the
 * row lock serializes acquirers, each re-checking the `where` against the row as the previous one
 * left it, so exactly one holds the lease at a time. `release` deletes the row only for its holder.
 *
 * @module
 */

import { checkInteger } from "@/lib/storage/records.ts";
import type { LeaseRepository } from "@/lib/storage/types.ts";
import type { PgContext } from "./context.ts";

/**
 * The {@link LeaseRepository} on `leases`.
 *
 * @example
 * ```ts
 * const leases = pgLeases(ctx);
 * if (await leases.acquire("billing", instanceId, Date.now(), 60_000)) {
 *   await leases.release("billing", instanceId);
 * }
 * ```
 */
export function pgLeases({ sql }: PgContext): LeaseRepository {
  return {
    async acquire(name, holder, now, ttlMs) {
      checkInteger(now, "now");
      checkInteger(ttlMs, "ttlMs", 1);
      // The row lock of `on conflict do update` serializes acquirers; each re-checks the `where`
      // against the row as the previous one left it.
      const rows = await sql`
        insert into leases (name, holder, expires_at) values (${name}, ${holder}, ${now + ttlMs})
        on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
        where leases.holder = excluded.holder or leases.expires_at <= ${now}
        returning name
      `;
      return rows.length === 1;
    },

    async release(name, holder) {
      await sql`delete from leases where name = ${name} and holder = ${holder}`;
    },
  };
}
