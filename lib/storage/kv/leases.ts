/**
 * Leases on Deno KV: which instance runs a scheduled job (billing, reconciliation).
 *
 * | key                | value                        | written by       |
 * |--------------------|------------------------------|------------------|
 * | `["leases", name]` | `{ holder, expiresAt }` (ms) | acquire, release |
 *
 * `acquire` rewrites the lease under a versionstamp check, so of two instances at once exactly one
 * takes a free or expired lease. Expiry is decided by the callers' `now`, so lease keys carry no
 * KV expiry (KV's collection runs on the real clock).
 *
 * @module
 */

import { commit, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { checkInteger } from "@/lib/storage/records.ts";
import type { LeaseRepository } from "@/lib/storage/types.ts";

/** The first key part of every lease. */
const LEASES = "leases";

/** The stored value of a `["leases", name]` key. */
interface LeaseValue {
  holder: string;
  /** Epoch ms, on the callers' clock. */
  expiresAt: number;
}

/** The {@link LeaseRepository} of the store on `ctx`. */
export function kvLeases({ kv }: KvContext): LeaseRepository {
  return {
    async acquire(name, holder, now, ttlMs) {
      checkInteger(now, "now");
      checkInteger(ttlMs, "ttlMs", 1);
      const key = [LEASES, name];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<LeaseValue>(key));
        const lease = entry.value;
        if (lease !== null && lease.holder !== holder && lease.expiresAt > now) return false;
        // No expireIn: the callers' clock decides expiry, and KV's collection runs on the real one.
        const value: LeaseValue = { holder, expiresAt: now + ttlMs };
        return (await commit(() => kv.atomic().check(entry).set(key, value))) ? true : RETRY;
      });
    },

    async release(name, holder) {
      const key = [LEASES, name];
      await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<LeaseValue>(key));
        if (entry.value === null || entry.value.holder !== holder) return;
        return (await commit(() => kv.atomic().check(entry).delete(key))) ? undefined : RETRY;
      });
    },
  };
}
