/**
 * Throttling on Deno KV: the recent event times of each key (login attempts per email, per
 * client address, ...).
 *
 * | key                 | value                               | written by    |
 * |---------------------|-------------------------------------|---------------|
 * | `["throttle", key]` | times (ms), sorted, <= 100; expires | record, clear |
 *
 * `record` rewrites the key's one value under a versionstamp check, so events recorded at once by
 * several instances are all kept. The value keeps at most 100 times (`THROTTLE_MAX_EVENTS` in
 * `queries.ts`: far under KV's 64 KiB) and is written with `expireIn` past its newest event's
 * window, so KV deletes it itself and retention has nothing to sweep.
 *
 * @module
 */

import { commit, EXPIRY_GRACE_MS, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { batchLimit, throttleWindow } from "../queries.ts";
import { checkInteger } from "../records.ts";
import type { ThrottleRepository } from "../types.ts";

/** The first key part of every throttle key. */
const THROTTLE = "throttle";

/** The {@link ThrottleRepository} of the store on `ctx`. */
export function kvThrottle({ kv }: KvContext): ThrottleRepository {
  return {
    async record(key, now, windowMs) {
      checkInteger(now, "now");
      checkInteger(windowMs, "windowMs", 1);
      const kvKey = [THROTTLE, key];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<number[]>(kvKey));
        const times = [...(entry.value ?? [])];
        // Sorted insert; usually at the end, but callers' clocks (and tests) may go back.
        let at = times.length;
        while (at > 0 && times[at - 1] > now) at--;
        times.splice(at, 0, now);
        const kept = throttleWindow(times, now, windowMs);
        // The value is useless once its newest event leaves the window: KV may then collect it.
        const expireIn = Math.max(0, kept[kept.length - 1] - now) + windowMs + EXPIRY_GRACE_MS;
        const ok = await commit(() => kv.atomic().check(entry).set(kvKey, kept, { expireIn }));
        return ok ? kept : RETRY;
      });
    },

    async recent(key, now, windowMs) {
      checkInteger(now, "now");
      checkInteger(windowMs, "windowMs", 1);
      const entry = await retryWhileLocked(() => kv.get<number[]>([THROTTLE, key]));
      return throttleWindow(entry.value ?? [], now, windowMs);
    },

    async clear(key) {
      await retryWhileLocked(() => kv.delete([THROTTLE, key]));
    },

    async deleteBefore(before, limit) {
      checkInteger(before, "before");
      batchLimit(limit);
      // Every value is written with a KV expiry past its newest event's window: KV deletes it.
      return await Promise.resolve(0);
    },
  };
}
