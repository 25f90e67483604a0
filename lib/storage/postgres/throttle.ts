/**
 * Login throttling on PostgreSQL.
 *
 * Table `throttle_events` (migration 5): one row per event, an identity `id`, the throttle `key`
 * and `at` in epoch milliseconds (a `bigint`, as the contract passes times), indexed by
 * `(key, at)` (migration 5) for a key's window and by `at` (migration 10) for retention.
 *
 * A `record` serializes on a transaction-scoped advisory lock per key, so each answer counts every
 * event recorded before it, and prunes that key's rows out of the window or beyond the
 * {@link THROTTLE_MAX_EVENTS} most recent: a key never holds more rows than it can answer.
 * `reserve` is one statement, the `throttle_reserve` function (migration 15): under the same
 * per-key advisory locks it counts each key's window and records one event under every key only
 * when all have room, so concurrent reservations never take more than the limit. `release`
 * deletes one row of the key at that time.
 * `deleteBefore` (retention) deletes one batch per statement of the oldest events no one holds
 * (`for update skip locked`).
 *
 * @module
 */

import type postgres from "postgres";
import { batchLimit, checkLimit, THROTTLE_MAX_EVENTS } from "@/lib/storage/queries.ts";
import { checkInteger } from "@/lib/storage/records.ts";
import type { ThrottleRepository } from "@/lib/storage/types.ts";
import type { PgContext } from "./context.ts";

/** The key's events (ms) later than `cutoff`, the most recent ones, oldest first. */
const throttleTimes = async (q: postgres.Sql | postgres.TransactionSql, key: string, cutoff: number) => {
  const rows = await q<{ at: string }[]>`
    select at from throttle_events where key = ${key} and at > ${cutoff}
    order by at desc, id desc limit ${THROTTLE_MAX_EVENTS}
  `;
  return rows.map((row) => Number(row.at)).reverse();
};

/**
 * The {@link ThrottleRepository} on `throttle_events`.
 *
 * @example
 * ```ts
 * const times = await pgThrottle(ctx).record("login:ada@example.org", Date.now(), 15 * 60_000);
 * ```
 */
export function pgThrottle({ sql, transaction }: PgContext): ThrottleRepository {
  return {
    async record(key, now, windowMs) {
      checkInteger(now, "now");
      checkInteger(windowMs, "windowMs", 1);
      const cutoff = now - windowMs;
      return await transaction(async (tx) => {
        // One recorder per key at a time, so each answer counts every event recorded before it.
        await tx`select pg_advisory_xact_lock(hashtextextended('donations.throttle:' || ${key}, 0))`;
        await tx`insert into throttle_events (key, at) values (${key}, ${now})`;
        // Prune this key: events out of the window, and all but the most recent ones.
        await tx`
          delete from throttle_events
          where key = ${key} and (
            at <= ${cutoff}
            or id not in (
              select id from throttle_events where key = ${key}
              order by at desc, id desc limit ${THROTTLE_MAX_EVENTS}
            )
          )
        `;
        return await throttleTimes(tx, key, cutoff);
      });
    },

    async recent(key, now, windowMs) {
      checkInteger(now, "now");
      checkInteger(windowMs, "windowMs", 1);
      return await throttleTimes(sql, key, now - windowMs);
    },

    async clear(key) {
      await sql`delete from throttle_events where key = ${key}`;
    },

    async reserve(keys, now, windowMs, limit) {
      checkInteger(now, "now");
      checkInteger(windowMs, "windowMs", 1);
      checkLimit(limit);
      if (keys.length === 0) throw new RangeError("reserve takes at least one key");
      const [{ retry_at }] = await sql<{ retry_at: string | null }[]>`
        select throttle_reserve(
          array(select jsonb_array_elements_text(${sql.json([...keys])})), ${now}, ${windowMs}, ${limit}
        ) as retry_at
      `;
      return retry_at === null ? { reserved: true } : { reserved: false, retryAt: Number(retry_at) };
    },

    async release(key, at, windowMs) {
      checkInteger(at, "at");
      checkInteger(windowMs, "windowMs", 1);
      await sql`
        delete from throttle_events where id = (
          select id from throttle_events where key = ${key} and at = ${at} order by id desc limit 1
        )
      `;
    },

    async deleteBefore(before, limit) {
      // `record` waits on its key's advisory lock, never on these row locks for long: a batch is
      // one statement, and `skip locked` never waits on a recorder's rows.
      const result = await sql`
        delete from throttle_events where id in (
          select id from throttle_events where at < ${checkInteger(before, "before")}
          order by at limit ${batchLimit(limit)} for update skip locked
        )
      `;
      return result.count;
    },
  };
}
