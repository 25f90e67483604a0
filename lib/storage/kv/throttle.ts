/**
 * Throttling on Deno KV: the recent event times of each key (login attempts per email, per
 * client address, ...).
 *
 * | key                 | value                               | written by                        |
 * |---------------------|-------------------------------------|-----------------------------------|
 * | `["throttle", key]` | times (ms), sorted, <= 100; expires | record, reserve, release, clear |
 *
 * `record` rewrites the key's one value under a versionstamp check, so events recorded at once by
 * several instances are all kept. `reserve` reads all its keys, decides, and commits with every
 * versionstamp it read checked: a racing reservation on any of the keys makes it read and decide
 * again, so no key ever takes more than the limit. The value keeps at most 100 times (`THROTTLE_MAX_EVENTS` in
 * `queries.ts`: far under KV's 64 KiB) and is written with `expireIn` past its newest event's
 * window, so KV deletes it itself and retention has nothing to sweep.
 *
 * @module
 */

import { commit, EXPIRY_GRACE_MS, KV_LIMITS, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
import type { KvContext } from "./context.ts";
import { batchLimit, checkLimit, throttleWindow } from "@/lib/storage/queries.ts";
import { checkInteger } from "@/lib/storage/records.ts";
import type { ThrottleRepository } from "@/lib/storage/types.ts";

/** The first key part of every throttle key. */
const THROTTLE = "throttle";

/** `times` (sorted) with `now` inserted in order; usually at the end, but clocks may go back. */
function withEvent(times: readonly number[], now: number): number[] {
  const out = [...times];
  let at = out.length;
  while (at > 0 && out[at - 1] > now) at--;
  out.splice(at, 0, now);
  return out;
}

/** KV's expiry for a key's kept times: the value is useless once its newest event leaves the window. */
const expiryOf = (kept: readonly number[], now: number, windowMs: number) =>
  Math.max(0, kept[kept.length - 1] - now) + windowMs + EXPIRY_GRACE_MS;

/** The {@link ThrottleRepository} of the store on `ctx`. */
export function kvThrottle({ kv }: KvContext): ThrottleRepository {
  return {
    async record(key, now, windowMs) {
      checkInteger(now, "now");
      checkInteger(windowMs, "windowMs", 1);
      const kvKey = [THROTTLE, key];
      return await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<number[]>(kvKey));
        const kept = throttleWindow(withEvent(entry.value ?? [], now), now, windowMs);
        const expireIn = expiryOf(kept, now, windowMs);
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

    async reserve(keys, now, windowMs, limit) {
      checkInteger(now, "now");
      checkInteger(windowMs, "windowMs", 1);
      checkLimit(limit);
      const kvKeys = [...new Set(keys)].map((key) => [THROTTLE, key]);
      if (kvKeys.length === 0 || kvKeys.length > KV_LIMITS.keysPerRead) {
        throw new RangeError(`reserve takes 1 to ${KV_LIMITS.keysPerRead} keys: ${kvKeys.length}`);
      }
      return await untilCommitted(async () => {
        const entries = await retryWhileLocked(() => kv.getMany<number[][]>(kvKeys));
        const windows = entries.map((entry) => throttleWindow(entry.value ?? [], now, windowMs));
        let retryAt = -Infinity;
        for (const times of windows) {
          if (times.length >= limit) retryAt = Math.max(retryAt, times[times.length - limit] + windowMs);
        }
        if (retryAt !== -Infinity) return { reserved: false, retryAt };
        const ok = await commit(() => {
          const op = kv.atomic().check(...entries);
          windows.forEach((times, i) => {
            const kept = throttleWindow(withEvent(times, now), now, windowMs);
            op.set(kvKeys[i], kept, { expireIn: expiryOf(kept, now, windowMs) });
          });
          return op;
        });
        return ok ? { reserved: true } : RETRY;
      });
    },

    async release(key, at, windowMs) {
      checkInteger(at, "at");
      checkInteger(windowMs, "windowMs", 1);
      const kvKey = [THROTTLE, key];
      await untilCommitted(async () => {
        const entry = await retryWhileLocked(() => kv.get<number[]>(kvKey));
        const times = entry.value ?? [];
        const index = times.lastIndexOf(at);
        if (index < 0) return undefined;
        const kept = times.toSpliced(index, 1);
        const ok = await commit(() => {
          const op = kv.atomic().check(entry);
          return kept.length === 0
            ? op.delete(kvKey)
            : op.set(kvKey, kept, { expireIn: expiryOf(kept, Date.now(), windowMs) });
        });
        return ok ? undefined : RETRY;
      });
    },

    async deleteBefore(before, limit) {
      checkInteger(before, "before");
      batchLimit(limit);
      // Every value is written with a KV expiry past its newest event's window: KV deletes it.
      return await Promise.resolve(0);
    },
  };
}
