/**
 * Rate limits on PostgreSQL.
 *
 * Table `rate_limits` (migration 13): one row per key, its window's `count` and `resets_at` (epoch
 * ms, a `bigint`), indexed by `resets_at` for retention. A hit of one key is one upsert: the
 * key's row is created, restarted (its window ended), or counted up to `limit + 1`, and the row
 * lock of `on conflict do update` makes racing hits of every instance wait their turn, so each
 * sees the count of every hit before it and at most `limit` are allowed per window. The one row
 * per key is reused window after window, so a key never grows; keys no longer hit (addresses not
 * seen again) are deleted by retention once their window ended.
 *
 * `hit` and `hitInOrder` are one call of the `rate_limit_hit` function (migrations 13 and 16): the
 * same upsert for each key in turn, inside PostgreSQL, stopping at the first refused; one round
 * trip whatever the number of keys. Its commit, like `rememberOrigin`'s (`rate_limit_remember_origin`),
 * does not wait for the disk (migration 16 says why, and what a crash can cost). Callers list keys in one order (address, then global), so the row locks of two
 * racing calls are taken in the same order and never deadlock.
 *
 * `admit` is one call of `rate_limit_admit` (migration 20): a payment start's hits, its decline caps
 * and its origin in one statement, the same commit, so the limiter adds one round trip to a payment.
 *
 * Table `rate_limit_origins` (migration 13): the client address bucket an online payment came
 * from, keyed by payment id, until `expires_at` (indexed for retention).
 *
 * @module
 */

import { batchLimit } from "@/lib/storage/queries.ts";
import { checkInteger } from "@/lib/storage/records.ts";
import type { Admission, AdmissionAnswer, RateLimitRepository, Refusal } from "@/lib/storage/types.ts";
import type { PgContext } from "./context.ts";

/**
 * The {@link RateLimitRepository} on `rate_limits` and `rate_limit_origins`.
 *
 * @example
 * ```ts
 * const { allowed } = await pgRateLimits(ctx).hit("donor:addr:203.0.113.7", 100, 600_000, Date.now());
 * ```
 */
export function pgRateLimits({ sql }: PgContext): RateLimitRepository {
  const hitInOrder: RateLimitRepository["hitInOrder"] = async (hits, windowMs, now) => {
    for (const { limit } of hits) checkInteger(limit, "limit", 1);
    checkInteger(windowMs, "windowMs", 1);
    checkInteger(now, "now");
    if (hits.length === 0) return [];
    const rows = await sql<{ hit_count: number; hit_resets_at: string }[]>`
      select * from rate_limit_hit(
        ${hits.map((h) => h.key)}::text[], ${hits.map((h) => h.limit)}::integer[], ${windowMs}, ${now}
      )
    `;
    return rows.map((row, i) => {
      const allowed = row.hit_count <= hits[i].limit;
      return {
        allowed,
        count: row.hit_count,
        retryAfterMs: allowed ? 0 : Number(row.hit_resets_at) - now,
      };
    });
  };

  const peekMany: RateLimitRepository["peekMany"] = async (keys, now) => {
    checkInteger(now, "now");
    if (keys.length > 10) throw new RangeError("at most 10 keys per peek");
    if (keys.length === 0) return [];
    const rows = await sql<{ key: string; count: number; resets_at: string }[]>`
      select key, count, resets_at from rate_limits where key = any(${keys as string[]}::text[]) and resets_at > ${now}
    `;
    const open = new Map(rows.map((row) => [row.key, row]));
    return keys.map((key) => {
      const row = open.get(key);
      return row
        ? { count: row.count, retryAfterMs: Number(row.resets_at) - now }
        : { count: 0, retryAfterMs: 0 };
    });
  };

  return {
    async admit(admission, now) {
      const a = admissionArgs(admission, now);
      const [row] = await sql<{ refused: Refusal["reason"]; retry_after_ms: string }[]>`
        select * from rate_limit_admit(
          ${a.keys}::text[], ${a.limits}::integer[], ${a.windowMs}, ${now},
          ${a.capKeys}::text[], ${a.caps}::integer[],
          ${admission.origin?.paymentId ?? null}, ${a.origin}, ${a.originExpiresAt}
        )
      `;
      return admissionAnswer(row?.refused ?? null, row?.retry_after_ms ?? null);
    },

    async hit(key, limit, windowMs, now) {
      // The same function as hitInOrder, for its commit that does not wait for the disk.
      return (await hitInOrder([{ key, limit }], windowMs, now))[0];
    },

    hitInOrder,

    async peek(key, now) {
      return (await peekMany([key], now))[0];
    },

    peekMany,

    async rememberOrigin(paymentId, origin, ttlMs, now) {
      checkInteger(ttlMs, "ttlMs", 1);
      checkInteger(now, "now");
      await sql`select rate_limit_remember_origin(${paymentId}, ${origin}, ${now + ttlMs})`;
    },

    async originOf(paymentId, now) {
      checkInteger(now, "now");
      const [row] = await sql<{ origin: string }[]>`
        select origin from rate_limit_origins where payment_id = ${paymentId} and expires_at > ${now}
      `;
      return row?.origin ?? null;
    },

    async deleteBefore(before, limit) {
      checkInteger(before, "before");
      batchLimit(limit);
      // One short statement per table; `skip locked` never waits on a hit's row.
      const windows = await sql`
        delete from rate_limits where key in (
          select key from rate_limits where resets_at < ${before}
          order by resets_at limit ${limit} for update skip locked
        )
      `;
      if (windows.count >= limit) return windows.count;
      const origins = await sql`
        delete from rate_limit_origins where payment_id in (
          select payment_id from rate_limit_origins where expires_at < ${before}
          order by expires_at limit ${limit - windows.count} for update skip locked
        )
      `;
      return windows.count + origins.count;
    },
  };
}

/**
 * An admission's arguments for the SQL functions of migration 20, checked: the hits' keys and
 * limits, the caps' keys and caps, the origin and when it expires.
 */
export function admissionArgs({ hits, windowMs, caps, origin }: Admission, now: number) {
  for (const { limit } of hits) checkInteger(limit, "limit", 1);
  for (const { cap } of caps) checkInteger(cap, "cap", 1);
  checkInteger(windowMs, "windowMs", 1);
  checkInteger(now, "now");
  if (hits.length > 10 || caps.length > 10) throw new RangeError("at most 10 hits and 10 caps per admission");
  if (origin) checkInteger(origin.ttlMs, "ttlMs", 1);
  return {
    keys: hits.map((h) => h.key),
    limits: hits.map((h) => h.limit),
    windowMs,
    capKeys: caps.map((c) => c.key),
    caps: caps.map((c) => c.cap),
    origin: origin?.origin ?? null,
    originExpiresAt: origin ? now + origin.ttlMs : null,
  };
}

/** The answer of an admission from the SQL's refusal columns (both null: admitted). */
export function admissionAnswer(
  refused: Refusal["reason"] | null,
  retryAfterMs: string | number | null,
): AdmissionAnswer {
  return refused
    ? { admitted: false, reason: refused, retryAfterMs: Number(retryAfterMs) }
    : { admitted: true };
}
