/**
 * Migration 18, `rate_limit_admit`: a payment's start in one call. Starting a payment counted its
 * request (`rate_limit_hit`), read the decline counters, and remembered its client: three statements
 * a donor waited for in turn, and the limiter's cost measured in `bench/README.md` (donation calls,
 * issue 13). `rate_limit_admit` does the three in one statement: the hits in order (stopping at the
 * first refused, as `rate_limit_hit`), then the caps (a counter at its cap in its open window
 * refuses), then, when admitted, the origin. It answers no row when admitted, one row (why, and
 * the milliseconds until the refusing window ends) when refused. Its commit does not wait for the
 * disk, as migration 16's functions (see there for why, and what a crash can cost).
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 18, as `schema_migrations` records it. */
export const migration018 = {
  version: 18,
  name: "rate_limit_admit",
  sql: `
      create function rate_limit_admit(
        p_keys text[], p_limits integer[], p_window_ms bigint, p_now_ms bigint,
        p_cap_keys text[], p_caps integer[],
        p_payment_id text, p_origin text, p_expires_at bigint
      ) returns table (refused text, retry_after_ms bigint)
      language plpgsql as $$
      declare
        v_count integer;
        v_resets_at bigint;
      begin
        perform set_config('synchronous_commit', 'off', true);
        for i in 1 .. coalesce(array_length(p_keys, 1), 0) loop
          insert into rate_limits as r (key, count, resets_at)
          values (p_keys[i], 1, p_now_ms + p_window_ms)
          on conflict (key) do update set
            count = case when r.resets_at <= p_now_ms then 1 else least(r.count + 1, p_limits[i] + 1) end,
            resets_at = case when r.resets_at <= p_now_ms then excluded.resets_at else r.resets_at end
          returning r.count, r.resets_at into v_count, v_resets_at;
          if v_count > p_limits[i] then
            refused := 'requests';
            retry_after_ms := v_resets_at - p_now_ms;
            return next;
            return;
          end if;
        end loop;
        for i in 1 .. coalesce(array_length(p_cap_keys, 1), 0) loop
          select r.count, r.resets_at into v_count, v_resets_at
          from rate_limits r where r.key = p_cap_keys[i] and r.resets_at > p_now_ms;
          if found and v_count >= p_caps[i] then
            refused := 'declines';
            retry_after_ms := v_resets_at - p_now_ms;
            return next;
            return;
          end if;
        end loop;
        if p_payment_id is not null then
          insert into rate_limit_origins (payment_id, origin, expires_at)
          values (p_payment_id, p_origin, p_expires_at)
          on conflict (payment_id) do update set origin = excluded.origin, expires_at = excluded.expires_at;
        end if;
      end
      $$;
    `,
};
