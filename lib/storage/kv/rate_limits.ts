/**
 * Rate limits on Deno KV: a fixed-window counter per key, and the client each online payment came
 * from (for the decline caps).
 *
 * | key                                 | value                                 | written by             |
 * |-------------------------------------|---------------------------------------|------------------------|
 * | `["rate_limits", key]`              | `{ count, resetsAt }` (ms); expires   | hit, hitInOrder, admit |
 * | `["rate_limit_origins", paymentId]` | `{ origin, expiresAt }` (ms); expires | rememberOrigin, admit  |
 *
 * `hit` and `hitInOrder` read the counters and commit the new counts in one atomic operation
 * under versionstamp checks, so hits from several instances at once are each counted once and
 * never more than `limit` are allowed; a lost race re-reads. The hits of this handle wait in line
 * and are committed in groups: every hit waiting (as many as one read's keys allow) is counted in
 * order in memory and written in one commit, so a hot key (the global limit) neither loses its
 * commits to its own process's other hits nor costs a disk sync per request. A refused hit writes only when it is the window's first
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
import { batchLimit } from "@/lib/storage/queries.ts";
import { checkInteger } from "@/lib/storage/records.ts";
import type { RateLimitHit, RateLimitRepository } from "@/lib/storage/types.ts";

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

/** One caller's hits waiting for the next group commit. */
interface Waiting {
  hits: readonly { key: string; limit: number }[];
  windowMs: number;
  now: number;
  resolve: (answers: RateLimitHit[]) => void;
  reject: (error: unknown) => void;
}

/** The {@link RateLimitRepository} of the store on `ctx`. */
export function kvRateLimits({ kv }: KvContext): RateLimitRepository {
  // Group commit: the hits of this handle wait in line, and each commit takes every hit waiting
  // (as many as one read's keys allow), counted one after another in memory. One at a time, a hot
  // key (the global limit) would otherwise lose its commits to this process's own other hits; and
  // a commit each (a disk sync each) made every donor wait in that line under load.
  const line: Waiting[] = [];
  let draining = false;

  const drain = async () => {
    draining = true;
    try {
      while (line.length > 0) {
        const batch: Waiting[] = [];
        const names = new Set<string>();
        while (line.length > 0) {
          const fresh = line[0].hits.filter(({ key }) => !names.has(key)).length;
          if (batch.length > 0 && names.size + fresh > KV_LIMITS.keysPerRead) break;
          const next = line.shift()!;
          batch.push(next);
          for (const { key } of next.hits) names.add(key);
        }
        try {
          const answers = await commitBatch(batch, [...names]);
          batch.forEach((waiting, i) => waiting.resolve(answers[i]));
        } catch (e) {
          for (const waiting of batch) waiting.reject(e);
        }
      }
    } finally {
      draining = false;
    }
  };

  const enqueue = (hits: Waiting["hits"], windowMs: number, now: number) =>
    new Promise<RateLimitHit[]>((resolve, reject) => {
      line.push({ hits, windowMs, now, resolve, reject });
      if (!draining) void drain();
    });

  // The batch's hits in order, as if each had committed alone; one commit checks every key written.
  const commitBatch = (batch: readonly Waiting[], names: readonly string[]) =>
    untilCommitted<RateLimitHit[][]>(async () => {
      const keys = names.map((name) => [RATE_LIMITS, name]);
      const entries = await retryWhileLocked(() => kv.getMany<WindowValue[]>(keys));
      const current = new Map(names.map((name, i) => [name, entries[i].value]));
      const written = new Map<string, WindowValue>();
      const answers = batch.map(({ hits, windowMs, now }) => {
        const out: RateLimitHit[] = [];
        for (const { key, limit } of hits) {
          const { answer, write } = nextWindow(current.get(key) ?? null, limit, windowMs, now);
          out.push(answer);
          if (write) {
            current.set(key, write);
            written.set(key, write);
          }
          if (!answer.allowed) break;
        }
        return out;
      });
      if (written.size === 0) return answers;
      const earliest = Math.min(...batch.map(({ now }) => now));
      // Built anew for each try while the file is locked.
      const op = () => {
        const atomic = kv.atomic();
        names.forEach((name, i) => {
          const value = written.get(name);
          if (value) {
            atomic.check(entries[i]).set(keys[i], value, {
              expireIn: value.resetsAt - earliest + EXPIRY_GRACE_MS,
            });
          }
        });
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

  const peekMany: RateLimitRepository["peekMany"] = (names, now) => peekWindows(kv, names, now);

  const hitInOrder: RateLimitRepository["hitInOrder"] = async (hits, windowMs, now) => {
    checked(hits, windowMs, now);
    if (hits.length === 0) return [];
    return await enqueue(hits, windowMs, now);
  };

  const rememberOrigin: RateLimitRepository["rememberOrigin"] = (paymentId, origin, ttlMs, now) =>
    rememberOriginIn(kv, paymentId, origin, ttlMs, now);

  return {
    async hit(key, limit, windowMs, now) {
      checked([{ key, limit }], windowMs, now);
      return (await enqueue([{ key, limit }], windowMs, now))[0];
    },

    hitInOrder,

    // Embedded, so three steps cost no round trips: the group-committed hits, one read, one write.
    async admit({ hits, windowMs, caps, origin }, now) {
      for (const { cap } of caps) checkInteger(cap, "cap", 1);
      const counted = await hitInOrder(hits, windowMs, now);
      const refused = counted.find((hit) => !hit.allowed);
      if (refused) return { admitted: false, reason: "requests", retryAfterMs: refused.retryAfterMs };
      const seen = await peekMany(caps.map(({ key }) => key), now);
      const full = seen.findIndex((counter, i) => counter.count >= caps[i].cap);
      if (full >= 0) return { admitted: false, reason: "declines", retryAfterMs: seen[full].retryAfterMs };
      if (origin) await rememberOrigin(origin.paymentId, origin.origin, origin.ttlMs, now);
      return { admitted: true };
    },

    async peek(key, now) {
      return (await peekMany([key], now))[0];
    },

    peekMany,

    rememberOrigin,

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

/** {@link RateLimitRepository.peekMany} on the handle. */
async function peekWindows(
  kv: Deno.Kv,
  names: readonly string[],
  now: number,
): Promise<{ count: number; retryAfterMs: number }[]> {
  checkInteger(now, "now");
  if (names.length > KV_LIMITS.keysPerRead) {
    throw new RangeError(`at most ${KV_LIMITS.keysPerRead} keys per peek`);
  }
  if (names.length === 0) return [];
  const entries = await retryWhileLocked(() =>
    kv.getMany<WindowValue[]>(names.map((name) => [RATE_LIMITS, name]))
  );
  return entries.map(({ value }) =>
    value === null || value.resetsAt <= now
      ? { count: 0, retryAfterMs: 0 }
      : { count: value.count, retryAfterMs: value.resetsAt - now }
  );
}

/** {@link RateLimitRepository.rememberOrigin} on the handle. */
async function rememberOriginIn(
  kv: Deno.Kv,
  paymentId: string,
  origin: string,
  ttlMs: number,
  now: number,
): Promise<void> {
  checkInteger(ttlMs, "ttlMs", 1);
  checkInteger(now, "now");
  const value: OriginValue = { origin, expiresAt: now + ttlMs };
  await retryWhileLocked(() => kv.set([ORIGINS, paymentId], value, { expireIn: ttlMs + EXPIRY_GRACE_MS }));
}
