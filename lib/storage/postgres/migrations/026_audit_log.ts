/**
 * Migration 26, `audit_log`: what the museum's staff did (issue 16), append-only.
 *
 * One row per entry, keyed by its time-ordered id, with the actor (id and email as known then), the
 * action, the client address, what was acted on and what changed (`jsonb`). Three indexes serve
 * the back office's filters newest first: all, by actor, by action (by both: the actor's index,
 * whose rows are one person's). A trigger refuses every `update`, `delete` and `truncate`, so not
 * even a bug in a route (or a stray statement in a console without `drop trigger`) rewrites history.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 26, as `schema_migrations` records it. */
export const migration026 = {
  version: 26,
  name: "audit_log",
  sql: `
      create table audit_log (
        id text collate "C" primary key,
        at timestamptz not null,
        action text not null,
        actor_id text,
        actor_email text not null,
        address text not null,
        target text,
        changes jsonb not null
      );
      create index audit_log_at on audit_log (at desc, id desc);
      create index audit_log_actor on audit_log (actor_id, at desc, id desc);
      create index audit_log_action on audit_log (action, at desc, id desc);
      create function audit_log_append_only() returns trigger language plpgsql as $$
        begin
          raise exception 'audit_log is append-only' using errcode = 'insufficient_privilege';
        end
      $$;
      create trigger audit_log_no_change before update or delete on audit_log
        for each row execute function audit_log_append_only();
      create trigger audit_log_no_truncate before truncate on audit_log
        for each statement execute function audit_log_append_only();
    `,
} as const;
