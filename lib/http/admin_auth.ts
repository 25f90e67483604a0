/**
 * Admin authentication for the admin API, as path-scoped middleware: `routes/api/auth/admin/`,
 * `routes/api/transaction/` and `routes/api/kiosk-devices/` each have a `_middleware.ts` that signs the caller in here before any
 * of their routes runs, so a new admin route is protected without doing anything (and the auth
 * matrix tests, which list the admin routes from the route manifest, prove it). The admin goes on
 * the request state, where routes read it with {@link signedInAdmin}.
 *
 * @module
 */
import {
  accountsContext,
  type AccountServices,
  authenticate,
  requireApproved,
} from "@/lib/staff/accounts.ts";
import type { Actor } from "@/lib/audit/actor.ts";
import { requireRole, type RouteRoles } from "@/lib/staff/roles.ts";
import { clientAddress } from "./client_address.ts";
import { requireSecondFactorIfDue } from "@/lib/staff/two_factor_gate.ts";
import type { Handler, Handlers, RouteContext } from "@/lib/framework/mod.ts";
import type { Admin } from "@/lib/storage/types.ts";

/** What the admin API's authentication reads and sets of a request's state (the app's `AppState` has it). */
export interface AdminState {
  services: AccountServices & { config: { trustProxy: boolean } };
  /** The signed-in admin, once authenticated. */
  admin?: Admin;
}

/**
 * Who may go on: any signed-in admin (`"signed-in"`: pending ones too, e.g. to see their own
 * status), or approved admins only (`"approved"`).
 */
export type AdminAccess = "signed-in" | "approved";

/**
 * Signs the request's admin in from its `Authorization: Bearer …` header and puts them on
 * `ctx.state.admin`; throws the domain's refusal otherwise (401 without a valid token, 403 for a
 * pending admin where approval is needed: `domain_errors.ts`). While an owner requires two-factor and
 * the admin has not set it up, only calls with `enrolmentOpen` go on (403 otherwise).
 *
 * @example
 * ```ts
 * export async function handler(req: Request, ctx: RouteContext<unknown, AdminState>) {
 *   await signInAdmin(req, ctx, "approved");
 *   return await ctx.next();
 * }
 * ```
 */
export async function signInAdmin(
  req: Request,
  ctx: RouteContext<unknown, AdminState>,
  access: AdminAccess,
  options: { enrolmentOpen?: boolean } = {},
): Promise<Admin> {
  const admin = await authenticate(accountsContext(ctx.state.services), req.headers.get("authorization"));
  if (access === "approved") requireApproved(admin);
  if (!options.enrolmentOpen) await requireSecondFactorIfDue(ctx.state.services.store, admin);
  ctx.state.admin = admin;
  return admin;
}

/**
 * The admin the middleware signed in. A route that asks for it outside the admin paths is a bug
 * (an error, answered 500), never an anonymous caller let through.
 *
 * @example
 * ```ts
 * const actor = signedInAdmin(ctx.state);
 * ```
 */
export function signedInAdmin(state: Pick<AdminState, "admin">): Admin {
  if (!state.admin) throw new Error("No signed-in admin: the route is not behind the admin middleware");
  return state.admin;
}

/**
 * The signed-in admin and the request's client address: the actor a staff action's audit entry
 * names.
 *
 * @example
 * ```ts
 * await revokeKioskDevice(store, id, signedInActor(ctx));
 * ```
 */
export function signedInActor(ctx: RouteContext<unknown, AdminState>): Actor {
  return {
    admin: signedInAdmin(ctx.state),
    address: clientAddress(ctx.hono, ctx.state.services.config.trustProxy),
  };
}

/**
 * `handlers`, each method first checking that the signed-in admin's role is one `roles` allows for
 * it (403 otherwise: `RoleRefusedError`). A method without declared roles is a bug found at
 * startup (the route module throws on import), never a method open to every role.
 *
 * @example
 * ```ts
 * export const roles = { GET: EVERY_ROLE } satisfies RouteRoles;
 * export const handler = guardRoles(roles, { GET: (_req, ctx) => Response.json([]) });
 * ```
 *
 * Routes call it as `withRoles` (`lib/app/with_roles.ts`), which fixes the state to the app's, so
 * their handlers' types are inferred from it.
 */
export function guardRoles<Data, S extends AdminState>(
  roles: RouteRoles,
  handlers: Handlers<Data, S>,
): Handlers<Data, S> {
  const guarded: Handlers<Data, S> = {};
  for (const [method, handle] of Object.entries(handlers) as [keyof RouteRoles, Handler<Data, S>][]) {
    const allowed = roles[method];
    if (!allowed) throw new Error(`${method}: the route declares no roles for it`);
    guarded[method] = (req, ctx) => {
      requireRole(signedInAdmin(ctx.state), allowed);
      return handle(req, ctx);
    };
  }
  return guarded;
}
