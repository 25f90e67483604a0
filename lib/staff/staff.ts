/**
 * The museum's staff as owners manage them (issue 16): the list of accounts with their roles, a
 * role change and a deactivation. Each is written with its audit entry in one atomic step
 * (`admins.setRole`, `admins.setStatus`), and storage refuses to leave the museum without an
 * active owner. A deactivated admin is refused at its next request: every access token is checked
 * against the account as stored (`accounts.ts` `authenticate`), and refresh tokens too.
 *
 * @module
 */

import type { AuditInput } from "@/lib/storage/audit_types.ts";
import { type Actor, actorEntry } from "@/lib/audit/mod.ts";
import { type Admin, type AdminRole, LastOwnerError } from "@/lib/storage/types.ts";
import { type AccountsContext, type AdminProfile, profile } from "./accounts.ts";
import { LastOwnerRefusedError, NoSuchAdminError, NotActiveAdminError, OwnRoleError } from "./errors.ts";
import { OWNERS, requireRole } from "./roles.ts";

export type { Actor };

const nowOf = (ctx: AccountsContext) => (ctx.now?.() ?? new Date()).toISOString();

const entry = (
  actor: Actor,
  action: AuditInput["action"],
  target: Admin,
  changes: AuditInput["changes"],
) => actorEntry(actor, action, target.id, changes);

/** The target of an owner's change: another admin that exists and is approved. */
async function activeTarget(ctx: AccountsContext, actor: Actor, id: string): Promise<Admin> {
  requireRole(actor.admin, OWNERS);
  if (id === actor.admin.id) throw new OwnRoleError();
  const target = await ctx.store.admins.get(id);
  if (!target) throw new NoSuchAdminError();
  if (target.status !== "approved") throw new NotActiveAdminError(target.status);
  return target;
}

/** Storage's last-owner refusal, as the domain says it. */
async function guarded<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (e) {
    throw e instanceof LastOwnerError ? new LastOwnerRefusedError() : e;
  }
}

/**
 * The staff an owner manages: approved and deactivated accounts (pending ones are in the
 * approvals list), oldest first.
 *
 * @example
 * ```ts
 * const staff = await listStaff(ctx, owner);
 * ```
 */
export async function listStaff(ctx: AccountsContext, actor: Admin): Promise<AdminProfile[]> {
  requireRole(actor, OWNERS);
  const [active, deactivated] = await Promise.all([
    ctx.store.admins.listByStatus("approved"),
    ctx.store.admins.listByStatus("deactivated"),
  ]);
  return [...active, ...deactivated].map(profile);
}

/**
 * Gives another approved admin `role` (owners only); the same role again changes nothing and
 * writes no entry.
 *
 * @example
 * ```ts
 * await changeRole(ctx, { admin: owner, address }, adminId, "finance");
 * ```
 */
export async function changeRole(
  ctx: AccountsContext,
  actor: Actor,
  id: string,
  role: AdminRole,
): Promise<AdminProfile> {
  const target = await activeTarget(ctx, actor, id);
  if (target.role === role) return profile(target);
  const updated = await guarded(ctx.store.admins.setRole(id, role, nowOf(ctx), {
    audit: [entry(actor, "role-changed", target, { role: { from: target.role, to: role } })],
  }));
  if (!updated) throw new NotActiveAdminError((await ctx.store.admins.get(id))?.status ?? "gone");
  return profile(updated);
}

/**
 * Deactivates another approved admin (owners only): it signs in no more, and its live access and
 * refresh tokens are refused from its next request on.
 *
 * @example
 * ```ts
 * await deactivate(ctx, { admin: owner, address }, adminId);
 * ```
 */
export async function deactivate(ctx: AccountsContext, actor: Actor, id: string): Promise<AdminProfile> {
  const target = await activeTarget(ctx, actor, id);
  const updated = await guarded(
    ctx.store.admins.setStatus(id, "deactivated", actor.admin.id, nowOf(ctx), "approved", {
      audit: [entry(actor, "admin-deactivated", target, { status: { from: "approved", to: "deactivated" } })],
    }),
  );
  if (!updated) throw new NotActiveAdminError((await ctx.store.admins.get(id))?.status ?? "gone");
  return profile(updated);
}
