/**
 * Migration 20, `rate_limit_admit`: the rate limiter in the same round trip as what it guards.
 * Creating a donor counted its request first (`rate_limit_hit`), and starting a payment counted its
 * request, read the decline counters and remembered its client: statements a donor waited for in
 * turn, and the limiter's cost measured in `bench/README.md` (donation calls, issue 13).
 *
 * - `rate_limit_admit` (`rateLimits.admit`): the hits in order (stopping at the first refused, as
 *   `rate_limit_hit`), then the caps (a counter at its cap in its open window refuses), then, when
 *   admitted, the origin. No row when admitted; one row (why, and the milliseconds until the
 *   refusing window ends) when refused. Its commit does not wait for the disk, as migration 16's.
 * - `donor_create_admitted` and `payment_create_admitted` (`donors.createAdmitted`,
 *   `payments.createOrReuseAdmitted`) are procedures, so that one `call` holds two transactions:
 *   the admission, committed at once without waiting for the disk (the global counter's row lock
 *   is held only that long, as in migration 16), then, when admitted, the creation, committed
 *   durably (`synchronous_commit` is back to the server's setting after the first commit). They
 *   run on the statement pool as single calls, never inside a transaction block (which forbids a
 *   procedure's commit). The answer comes back in the INOUT parameters.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 20, as `schema_migrations` records it. */
export const migration020 = {
  version: 20,
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

      create procedure donor_create_admitted(
        p_donor jsonb,
        p_keys text[], p_limits integer[], p_window_ms bigint, p_now_ms bigint,
        p_cap_keys text[], p_caps integer[],
        inout o_refused text default null, inout o_retry_after_ms bigint default null
      )
      language plpgsql as $$
      begin
        select a.refused, a.retry_after_ms into o_refused, o_retry_after_ms
        from rate_limit_admit(p_keys, p_limits, p_window_ms, p_now_ms, p_cap_keys, p_caps, null, null, null) a;
        commit;
        if o_refused is null then
          insert into donors select (jsonb_populate_record(null::donors, p_donor)).*;
        end if;
      end
      $$;

      create procedure payment_create_admitted(
        p_payment jsonb, p_dedupe_key text, p_window_ms bigint, p_now_ms bigint,
        p_keys text[], p_limits integer[], p_limit_window_ms bigint,
        p_cap_keys text[], p_caps integer[],
        p_origin text, p_origin_expires_at bigint,
        inout o_refused text default null, inout o_retry_after_ms bigint default null,
        inout o_payment jsonb default null
      )
      language plpgsql as $$
      begin
        select a.refused, a.retry_after_ms into o_refused, o_retry_after_ms
        from rate_limit_admit(
          p_keys, p_limits, p_limit_window_ms, p_now_ms, p_cap_keys, p_caps,
          case when p_origin is null then null else p_payment ->> 'id' end, p_origin, p_origin_expires_at
        ) a;
        commit;
        if o_refused is null then
          o_payment := to_jsonb(create_or_reuse_payment(p_payment, p_dedupe_key, p_window_ms, p_now_ms));
        end if;
      end
      $$;
    `,
};
