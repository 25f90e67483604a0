/**
 * Who may call what in the back office (issue 16): the role sets the admin routes declare, and the
 * check. Each admin API route exports `roles` (its methods' allowed roles) and wraps its handlers
 * with `withRoles` (`lib/app/with_roles.ts`, over `guardRoles` of `lib/http/admin_auth.ts`); `tests/api_roles_test.ts` calls every route as
 * every role, so a route that forgets is found.
 *
 * - `owner`: everything, roles and settings included;
 * - `admin`: everything but roles;
 * - `finance`: transactions, donors, refunds, receipts, exports, reports;
 * - `viewer`: read-only lists, no export, no personal data beyond names and masked emails;
 * - `desk`: the front desk's look-ups and check-ins, nothing else (issue 28).
 *
 * @module
 */

import {
  ADMIN_ROLES,
  type AdminRole,
  ADMINS,
  ANY_ROLE,
  DESK,
  EVERY_ROLE,
  FINANCE,
  OWNERS,
} from "@/lib/shared/admin_roles.ts";
import type { Admin } from "@/lib/storage/types.ts";
import { NotApprovedError, RoleRefusedError } from "./errors.ts";

// The sets live where the browser can read them too (the back office's navigation).
export { ADMIN_ROLES, type AdminRole, ADMINS, ANY_ROLE, DESK, EVERY_ROLE, FINANCE, OWNERS };

/** The roles each method of a route allows, e.g. `{ GET: EVERY_ROLE, POST: FINANCE }`. */
export type RouteRoles = Readonly<
  Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", readonly AdminRole[]>>
>;

/**
 * Throws unless `admin` is approved and its role is one of `allowed`: {@link NotApprovedError}
 * for a pending admin, {@link RoleRefusedError} (403) for a role not allowed.
 *
 * @example
 * ```ts
 * requireRole(admin, FINANCE);
 * ```
 */
export function requireRole(admin: Admin, allowed: readonly AdminRole[]): Admin {
  if (admin.status !== "approved") throw new NotApprovedError();
  if (admin.role === null || !allowed.includes(admin.role)) throw new RoleRefusedError(admin.role);
  return admin;
}

/** Whether a role sees donors' personal data (a viewer sees names and masked emails only). */
export const seesPersonalData = (role: AdminRole | null): boolean =>
  role !== null && role !== "viewer" && role !== "desk";
