/**
 * Migration 16, `rate_limits_async_commit`: the rate-limit writes commit without waiting for the
 * disk. Every donor and payment counts against the global limit's one row, and each count held
 * that row's lock until its commit had synced: donors waited in line for the disk (measured in
 * `bench/README.md`, donation calls). `rate_limit_hit` and the new `rate_limit_remember_origin`
 * switch `synchronous_commit` off for their own transaction (`set_config(..., true)`, not a
 * function `SET` clause, which would end before the commit). They run as single statements on the
 * statement pool (never inside a transaction of other writes, which they would make asynchronous
 * too). What a database crash can lose is the last fraction of a second of counts: a limit that
 * is briefly more lenient, never a donation.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 16, as `schema_migrations` records it. */
export const migration016 = {
  version: 16,
  name: "rate_limits_async_commit",
  sql: `
      create or replace function rate_limit_hit(
        p_keys text[], p_limits integer[], p_window_ms bigint, p_now_ms bigint
      ) returns table (hit_count integer, hit_resets_at bigint)
      language plpgsql as $$
      begin
        perform set_config('synchronous_commit', 'off', true);
        for i in 1 .. coalesce(array_length(p_keys, 1), 0) loop
          insert into rate_limits as r (key, count, resets_at)
          values (p_keys[i], 1, p_now_ms + p_window_ms)
          on conflict (key) do update set
            count = case when r.resets_at <= p_now_ms then 1 else least(r.count + 1, p_limits[i] + 1) end,
            resets_at = case when r.resets_at <= p_now_ms then excluded.resets_at else r.resets_at end
          returning r.count, r.resets_at into hit_count, hit_resets_at;
          return next;
          exit when hit_count > p_limits[i];
        end loop;
      end
      $$;

      create function rate_limit_remember_origin(p_payment_id text, p_origin text, p_expires_at bigint)
      returns void
      language plpgsql as $$
      begin
        perform set_config('synchronous_commit', 'off', true);
        insert into rate_limit_origins (payment_id, origin, expires_at)
        values (p_payment_id, p_origin, p_expires_at)
        on conflict (payment_id) do update set origin = excluded.origin, expires_at = excluded.expires_at;
      end
      $$;
    `,
};
