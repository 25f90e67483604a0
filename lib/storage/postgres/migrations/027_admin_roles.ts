/**
 * Migration 27, `admin_roles`: roles and deactivation for the museum's staff (issue 16).
 *
 * `admins.role` is one of owner, admin, finance, viewer for approved and deactivated admins, null
 * for pending and rejected ones (a check says so). Admins approved before roles existed keep what
 * they could do: the first approved (by creation, as Deno KV's migration does) becomes the owner, the others
 * `admin` (everything but roles). The status check gains `deactivated`.
 *
 * History: once released, never edited (see `../migrations.ts`); its SQL is the text databases ran.
 *
 * @module
 */

/** Migration 27, as `schema_migrations` records it. */
export const migration027 = {
  version: 27,
  name: "admin_roles",
  sql: `
      alter table admins drop constraint admins_status_check;
      alter table admins add constraint admins_status_check
        check (status in ('approved', 'pending', 'rejected', 'deactivated'));
      alter table admins add column role text;
      update admins set role = 'admin' where status = 'approved';
      update admins set role = 'owner' where id = (
        select id from admins where status = 'approved'
        order by created_at, id collate "C" limit 1
      );
      alter table admins add constraint admins_role_check check (
        case when status in ('approved', 'deactivated')
          then role in ('owner', 'admin', 'finance', 'viewer')
          else role is null end
      );
    `,
} as const;
