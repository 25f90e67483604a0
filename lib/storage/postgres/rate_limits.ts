/**
 * Rate limits on PostgreSQL.
 *
 * Table `rate_limits` (migration 13): one row per key, its window's `count` and `resets_at` (epoch
 * ms, a `bigint`), indexed by `resets_at` for retention. A `hit` is one upsert statement: the
 * key's row is created, restarted (its window ended), or counted up to `limit + 1`, and the row
 * lock of `on conflict do update` makes racing hits of every instance wait their turn, so each
 * sees the count of every hit before it and at most `limit` are allowed per window. The one row
 * per key is reused window after window, so a key never grows; keys no longer hit (addresses not
 * seen again) are deleted by retention once their window ended.
 *
 * `hitInOrder` is one call of the `rate_limit_hit` function (migration 13): the same upsert for
 * each key in turn, inside PostgreSQL, stopping at the first refused; one round trip whatever the
 * number of keys. Callers list keys in one order (address, then global), so the row locks of two
 * racing calls are taken in the same order and never deadlock.
 *
 * Table `rate_limit_origins` (migration 13): the client address bucket an online payment came
 * from, keyed by payment id, until `expires_at` (indexed for retention).
 *
 * @module
 */

import { batchLimit } from "../queries.ts";
import { checkInteger } from "../records.ts";
import type { RateLimitRepository } from "../types.ts";
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
  return {
    async hit(key, limit, windowMs, now) {
      checkInteger(limit, "limit", 1);
      checkInteger(windowMs, "windowMs", 1);
      checkInteger(now, "now");
      const [row] = await sql<{ count: number; resets_at: string }[]>`
        insert into rate_limits as r (key, count, resets_at) values (${key}, 1, ${now + windowMs})
        on conflict (key) do update set
          count = case when r.resets_at <= ${now} then 1 else least(r.count + 1, ${limit + 1}) end,
          resets_at = case when r.resets_at <= ${now} then excluded.resets_at else r.resets_at end
        returning count, resets_at
      `;
      const allowed = row.count <= limit;
      return { allowed, count: row.count, retryAfterMs: allowed ? 0 : Number(row.resets_at) - now };
    },

    async hitInOrder(hits, windowMs, now) {
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
    },

    async peek(key, now) {
      checkInteger(now, "now");
      const [row] = await sql<{ count: number; resets_at: string }[]>`
        select count, resets_at from rate_limits where key = ${key} and resets_at > ${now}
      `;
      return row
        ? { count: row.count, retryAfterMs: Number(row.resets_at) - now }
        : { count: 0, retryAfterMs: 0 };
    },

    async rememberOrigin(paymentId, origin, ttlMs, now) {
      checkInteger(ttlMs, "ttlMs", 1);
      checkInteger(now, "now");
      await sql`
        insert into rate_limit_origins (payment_id, origin, expires_at) values (${paymentId}, ${origin}, ${
        now + ttlMs
      })
        on conflict (payment_id) do update set origin = excluded.origin, expires_at = excluded.expires_at
      `;
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
