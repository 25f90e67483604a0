/**
 * Rate limits on Deno KV: a fixed-window counter per key, and the client each online payment came
 * from (for the decline caps).
 *
 * | key                                | value                               | written by     |
 * |------------------------------------|-------------------------------------|----------------|
 * | `["rate_limits", key]`             | `{ count, resetsAt }` (ms); expires | hit            |
 * | `["rate_limit_origins", paymentId]` | `{ origin, expiresAt }` (ms); expires | rememberOrigin |
 *
 * `hit` reads the counter and commits the new count under a versionstamp check, so hits from
 * several instances at once are each counted once and never more than `limit` are allowed; a lost
 * race re-reads. Hits on one key from this handle are queued one after another first: a hot key
 * (the global limit) would otherwise lose most of its commits to its own process's other hits. A
 * refused hit writes only when it is the window's first refusal (the count becomes `limit + 1`),
 * so a flood of refused requests reads but does not write.
 *
 * Every value is written with `expireIn` just past the end of its window (or the origin's life):
 * KV deletes it itself and retention has nothing to sweep. An expired value KV has not collected
 * yet is read as ended by the times it holds, not by its presence.
 *
 * @module
 */

import { commit, EXPIRY_GRACE_MS, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { batchLimit } from "../queries.ts";
import { checkInteger } from "../records.ts";
import type { RateLimitHit, RateLimitRepository } from "../types.ts";

/** The first key part of every counter. */
const RATE_LIMITS = "rate_limits";
/** The first key part of every payment's origin. */
const ORIGINS = "rate_limit_origins";

/** The stored value of a `["rate_limits", key]` key. */
interface WindowValue {
  count: number;
  resetsAt: number;
}

/** The stored value of a `["rate_limit_origins", paymentId]` key. */
interface OriginValue {
  origin: string;
  expiresAt: number;
}

/** The {@link RateLimitRepository} of the store on `ctx`. */
export function kvRateLimits({ kv }: KvContext): RateLimitRepository {
  // The tail of each key's queue of hits on this handle; removed once the key's queue is empty.
  const queues = new Map<string, Promise<unknown>>();
  const queued = <T>(key: string, run: () => Promise<T>): Promise<T> => {
    const result = (queues.get(key) ?? Promise.resolve()).then(run, run);
    const tail = result.catch(() => {});
    queues.set(key, tail);
    tail.then(() => {
      if (queues.get(key) === tail) queues.delete(key);
    });
    return result;
  };

  const hitOnce = (key: string, limit: number, windowMs: number, now: number) =>
    untilCommitted<RateLimitHit>(async () => {
      const kvKey = [RATE_LIMITS, key];
      const entry = await retryWhileLocked(() => kv.get<WindowValue>(kvKey));
      const open = entry.value !== null && entry.value.resetsAt > now;
      const resetsAt = open ? entry.value!.resetsAt : now + windowMs;
      const before = open ? entry.value!.count : 0;
      const count = Math.min(before + 1, limit + 1);
      const allowed = count <= limit;
      const answer = { allowed, count, retryAfterMs: allowed ? 0 : resetsAt - now };
      // Already refused in this window: nothing changes.
      if (count === before) return answer;
      const expireIn = resetsAt - now + EXPIRY_GRACE_MS;
      const value: WindowValue = { count, resetsAt };
      const ok = await commit(() => kv.atomic().check(entry).set(kvKey, value, { expireIn }));
      return ok ? answer : RETRY;
    });

  return {
    async hit(key, limit, windowMs, now) {
      checkInteger(limit, "limit", 1);
      checkInteger(windowMs, "windowMs", 1);
      checkInteger(now, "now");
      return await queued(key, () => hitOnce(key, limit, windowMs, now));
    },

    async peek(key, now) {
      checkInteger(now, "now");
      const entry = await retryWhileLocked(() => kv.get<WindowValue>([RATE_LIMITS, key]));
      if (entry.value === null || entry.value.resetsAt <= now) return { count: 0, retryAfterMs: 0 };
      return { count: entry.value.count, retryAfterMs: entry.value.resetsAt - now };
    },

    async rememberOrigin(paymentId, origin, ttlMs, now) {
      checkInteger(ttlMs, "ttlMs", 1);
      checkInteger(now, "now");
      const value: OriginValue = { origin, expiresAt: now + ttlMs };
      await retryWhileLocked(() =>
        kv.set([ORIGINS, paymentId], value, { expireIn: ttlMs + EXPIRY_GRACE_MS })
      );
    },

    async originOf(paymentId, now) {
      checkInteger(now, "now");
      const entry = await retryWhileLocked(() => kv.get<OriginValue>([ORIGINS, paymentId]));
      return entry.value !== null && entry.value.expiresAt > now ? entry.value.origin : null;
    },

    async deleteBefore(before, limit) {
      checkInteger(before, "before");
      batchLimit(limit);
      // Every value is written with a KV expiry past its window's end: KV deletes it.
      return await Promise.resolve(0);
    },
  };
}
