/**
 * The admin API's role guard with the app's request state: `guardRoles` of `lib/http/admin_auth.ts`
 * is generic over the state it reads; here it is fixed to {@link AppState}, so a route's inline
 * handlers get `ctx.state.services` and the rest typed without naming them.
 *
 * @module
 */
import type { Handlers } from "@/lib/framework/mod.ts";
import { guardRoles } from "@/lib/http/admin_auth.ts";
import type { RouteRoles } from "@/lib/staff/roles.ts";
import type { AppState } from "./state.ts";

/**
 * `handlers`, each method first checking the signed-in admin's role against `roles` (403 otherwise).
 *
 * @example
 * ```ts
 * export const roles = { GET: EVERY_ROLE } satisfies RouteRoles;
 * export const handler = withRoles(roles, { GET: (_req, ctx) => Response.json(ctx.state.admin) });
 * ```
 */
export function withRoles<Data>(
  roles: RouteRoles,
  handlers: Handlers<Data, AppState>,
): Handlers<Data, AppState> {
  return guardRoles(roles, handlers);
}
