/**
 * Migration 15, `throttle_reserve_and_refresh_family_start`: the throttle_reserve function (the
 * login throttle's check-and-record in one statement), and the first sign-in of each refresh-token
 * family (`refresh_tokens.family_started_at`), from which a family lives at most 30 days.
 *
 * History: once released, existing databases have run it, so it is never edited (see
 * `../migrations.ts`).
 *
 * @module
 */

/** Migration 15, as `schema_migrations` records it. */
export const migration015 = {
  version: 15,
  name: "throttle_reserve_and_refresh_family_start",
  sql: `
      -- throttle.reserve in one statement: when every key holds fewer than p_limit events later
      -- than p_now - p_window, one event at p_now is recorded under each and null is answered;
      -- otherwise nothing is recorded and the time (ms) the fullest key has room again is. One
      -- decision per key at a time: the advisory lock throttle.record takes too, the keys locked in
      -- one order so two reservations cannot deadlock; released at commit, the statement's end.
      create function throttle_reserve(p_keys text[], p_now bigint, p_window bigint, p_limit integer)
      returns bigint
      language plpgsql as $$
      declare
        k text;
        nth bigint;
        retry_at bigint := null;
      begin
        for k in select distinct u from unnest(p_keys) as u order by u loop
          perform pg_advisory_xact_lock(hashtextextended('donations.throttle:' || k, 0));
        end loop;
        -- New statements after the locks (this function is volatile): they see every event
        -- committed before. The p_limit-th most recent event in the window, if there is one.
        for k in select distinct u from unnest(p_keys) as u loop
          select at into nth from throttle_events where key = k and at > p_now - p_window
          order by at desc, id desc offset p_limit - 1 limit 1;
          if found then
            retry_at := greatest(coalesce(retry_at, nth + p_window), nth + p_window);
          end if;
        end loop;
        if retry_at is not null then
          return retry_at;
        end if;
        insert into throttle_events (key, at) select distinct u, p_now from unnest(p_keys) as u;
        delete from throttle_events where key = any (p_keys) and at <= p_now - p_window;
        return null;
      end
      $$;

      -- A refresh-token family's first sign-in, carried by each of its tokens. Tokens stored before
      -- get the oldest token of their family still stored (tokens stay until they expire).
      alter table refresh_tokens add column family_started_at timestamptz;
      update refresh_tokens t set family_started_at = f.started
      from (select family_id, min(created_at) as started from refresh_tokens group by family_id) f
      where f.family_id = t.family_id;
      alter table refresh_tokens alter column family_started_at set not null;
    `,
};
