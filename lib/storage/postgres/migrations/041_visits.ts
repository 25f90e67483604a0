/**
 * Migration 41, `visits` (issue 28): the front desk's visits, and the `desk` role.
 *
 * `visits` holds one row per member let in, keyed by the desk's own id (so a repeated send inserts
 * nothing: `on conflict do nothing`); an override carries its reason (a check says so). Two indexes
 * read it newest first: by time (the day's list, the reports) and by member (a member's page).
 * `admins_role_check` gains `desk`.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 41, as `schema_migrations` records it. */
export const migration041 = {
  version: 41,
  name: "visits",
  sql: `
      create table visits (
        id text primary key,
        number text,
        cardholder text not null,
        guests integer not null constraint visits_guests_check check (guests >= 0),
        level_id integer,
        desk_id text not null,
        desk_email text not null,
        at timestamptz not null,
        kind text not null constraint visits_kind_check check (kind in ('check-in', 'override')),
        reason text,
        constraint visits_reason_check check (kind = 'check-in' or reason is not null)
      );
      create index visits_at on visits (at desc, id desc);
      create index visits_number on visits (number, at desc, id desc) where number is not null;
      alter table admins drop constraint admins_role_check;
      alter table admins add constraint admins_role_check check (
        case when status in ('approved', 'deactivated')
          then role in ('owner', 'admin', 'finance', 'viewer', 'desk')
          else role is null end
      );
    `,
} as const;
