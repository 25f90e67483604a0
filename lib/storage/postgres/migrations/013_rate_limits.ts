/**
 * Migration 13, `rate_limits`: fixed-window counters, the clients payments came from, and the
 * function that counts a request against several limits in one call.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 13, as `schema_migrations` records it. */
export const migration013 = {
  version: 13,
  name: "rate_limits",
  sql: `
      -- One row per key: its window's count and end (epoch milliseconds, as the contract passes
      -- them). A hit is one upsert of the key's row; retention deletes ended windows by resets_at.
      create table rate_limits (
        key text primary key,
        count integer not null,
        resets_at bigint not null
      );
      create index rate_limits_resets_at on rate_limits (resets_at);
      -- The client address bucket an online payment was started from, until the payment can no
      -- longer be declined (its decline is then counted against that client).
      create table rate_limit_origins (
        payment_id text primary key,
        origin text not null,
        expires_at bigint not null
      );
      create index rate_limit_origins_expires_at on rate_limit_origins (expires_at);

      -- rateLimits.hitInOrder in one call: each key's window counted in the order given (the
      -- upsert's row lock makes racing calls wait their turn), stopping at the first refused, so
      -- the keys after it are not counted. One row answered per key counted.
      create function rate_limit_hit(
        p_keys text[], p_limits integer[], p_window_ms bigint, p_now_ms bigint
      ) returns table (hit_count integer, hit_resets_at bigint)
      language plpgsql as $$
      begin
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
    `,
};
