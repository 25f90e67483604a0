/**
 * Replay protection on Deno KV: each nonce can be claimed once until it expires.
 *
 * | key                 | value                         | written by |
 * |---------------------|-------------------------------|------------|
 * | `["nonces", nonce]` | `{ expiresAt }` (ms); expires | claim      |
 *
 * `claim` checks the nonce's key as read: absent, or present but expired. Expired keys can still
 * be read until KV collects them, so the stored `expiresAt`, not the key's presence, decides. The
 * key is written with `expireIn` just past its own expiry, so KV deletes it itself and retention
 * has nothing to sweep.
 *
 * @module
 */

import { commit, EXPIRY_GRACE_MS, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { batchLimit } from "@/lib/storage/queries.ts";
import { checkInteger } from "@/lib/storage/records.ts";
import type { NonceRepository } from "@/lib/storage/types.ts";

/** The first key part of every nonce. */
const NONCES = "nonces";

/** The stored value of a `["nonces", nonce]` key. */
interface NonceValue {
  expiresAt: number;
}

/** The {@link NonceRepository} of the store on `ctx`. */
export function kvNonces({ kv }: KvContext): NonceRepository {
  return {
    async claim(nonce, expiresAt) {
      checkInteger(expiresAt, "expiresAt");
      const key = [NONCES, nonce];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<NonceValue>(key));
        const now = Date.now();
        if (entry.value !== null && entry.value.expiresAt > now) return false;
        // Absent, or claimed before and expired (KV may not have collected it yet): claim it now.
        const expireIn = Math.max(0, expiresAt - now) + EXPIRY_GRACE_MS;
        const value: NonceValue = { expiresAt };
        return (await commit(() => kv.atomic().check(entry).set(key, value, { expireIn }))) ? true : RETRY;
      });
    },

    async deleteExpired(now, limit) {
      checkInteger(now, "now");
      batchLimit(limit);
      // Every claim is written with a KV expiry just past its own: KV deletes it.
      return await Promise.resolve(0);
    },
  };
}
