/**
 * Rate limits on Deno KV: a fixed-window counter per key, and the client each online payment came
 * from (for the decline caps).
 *
 * | key                                 | value                                 | written by       |
 * |-------------------------------------|---------------------------------------|------------------|
 * | `["rate_limits", key]`              | `{ count, resetsAt }` (ms); expires   | hit, hitInOrder  |
 * | `["rate_limit_origins", paymentId]` | `{ origin, expiresAt }` (ms); expires | rememberOrigin   |
 *
 * `hit` and `hitInOrder` read the counters and commit the new counts in one atomic operation
 * under versionstamp checks, so hits from several instances at once are each counted once and
 * never more than `limit` are allowed; a lost race re-reads. The hits of this handle are queued
 * one after another first: a hot key (the global limit) would otherwise lose most of its commits
 * to its own process's other hits. A refused hit writes only when it is the window's first
 * refusal (the count becomes `limit + 1`), so a flood of refused requests reads but does not write.
 *
 * Every value is written with `expireIn` just past the end of its window (or the origin's life):
 * KV deletes it itself and retention has nothing to sweep. An expired value KV has not collected
 * yet is read as ended by the times it holds, not by its presence.
 *
 * @module
 */

import { commit, EXPIRY_GRACE_MS, KV_LIMITS, RETRY, retryWhileLocked, untilCommitted } from "./atomic.ts";
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

/** What one key's hit does to its window: the answer, and the value to write (`null`: unchanged). */
function nextWindow(
  value: WindowValue | null,
  limit: number,
  windowMs: number,
  now: number,
): { answer: RateLimitHit; write: WindowValue | null } {
  const open = value !== null && value.resetsAt > now;
  const resetsAt = open ? value!.resetsAt : now + windowMs;
  const before = open ? value!.count : 0;
  const count = Math.min(before + 1, limit + 1);
  const allowed = count <= limit;
  const answer = { allowed, count, retryAfterMs: allowed ? 0 : resetsAt - now };
  // Already refused in this window: nothing changes.
  return { answer, write: count === before ? null : { count, resetsAt } };
}

/** The {@link RateLimitRepository} of the store on `ctx`. */
export function kvRateLimits({ kv }: KvContext): RateLimitRepository {
  // Hits of this handle run one after another: a hot key (the global limit) would otherwise lose
  // most of its commits to this process's own other hits. SQLite writes one at a time anyway.
  let tail: Promise<unknown> = Promise.resolve();
  const queued = <T>(run: () => Promise<T>): Promise<T> => {
    const result = tail.then(run, run);
    tail = result.catch(() => {});
    return result;
  };

  const hitOnce = (hits: readonly { key: string; limit: number }[], windowMs: number, now: number) =>
    untilCommitted<RateLimitHit[]>(async () => {
      const keys = hits.map(({ key }) => [RATE_LIMITS, key]);
      const entries = await retryWhileLocked(() => kv.getMany<WindowValue[]>(keys));
      const answers: RateLimitHit[] = [];
      const writes: [Deno.KvEntryMaybe<WindowValue>, Deno.KvKey, WindowValue][] = [];
      for (let i = 0; i < hits.length; i++) {
        const { answer, write } = nextWindow(entries[i].value, hits[i].limit, windowMs, now);
        answers.push(answer);
        if (write) writes.push([entries[i], keys[i], write]);
        if (!answer.allowed) break;
      }
      if (writes.length === 0) return answers;
      // Built anew for each try while the file is locked.
      const op = () => {
        const atomic = kv.atomic();
        for (const [entry, key, value] of writes) {
          atomic.check(entry).set(key, value, { expireIn: value.resetsAt - now + EXPIRY_GRACE_MS });
        }
        return atomic;
      };
      return (await commit(op)) ? answers : RETRY;
    });

  const checked = (hits: readonly { key: string; limit: number }[], windowMs: number, now: number) => {
    for (const { limit } of hits) checkInteger(limit, "limit", 1);
    checkInteger(windowMs, "windowMs", 1);
    checkInteger(now, "now");
    if (hits.length > KV_LIMITS.keysPerRead) {
      throw new RangeError(`at most ${KV_LIMITS.keysPerRead} keys per hit`);
    }
  };

  return {
    async hit(key, limit, windowMs, now) {
      checked([{ key, limit }], windowMs, now);
      return (await queued(() => hitOnce([{ key, limit }], windowMs, now)))[0];
    },

    async hitInOrder(hits, windowMs, now) {
      checked(hits, windowMs, now);
      if (hits.length === 0) return [];
      return await queued(() => hitOnce(hits, windowMs, now));
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
