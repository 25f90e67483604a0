/**
 * The admin API as the route manifest has it, for the auth-matrix tests
 * (`tests/api_auth_admin_test.ts`, `tests/reliability/security_test.ts`): every route under the
 * admin folders, documented in OpenAPI or not, minus an explicit list of public calls. A new admin
 * route is in the list without editing a test, so one left without protection fails them.
 *
 * @module
 */
import { discoverRoutes } from "@/tests/reliability/fuzz_support.ts";

/**
 * The folders of the admin API (each with a `_middleware.ts` that signs the admin in): every route
 * below them needs a signed-in admin, but the public calls.
 */
export const ADMIN_FOLDERS = [
  "/api/auth/admin/",
  "/api/transaction/",
  "/api/kiosk-devices",
  "/api/outbox",
  "/api/donor",
  "/api/audit",
  "/api/settings",
  "/api/reports/",
  "/api/overview",
  "/api/memberships",
  "/api/visits",
];

/**
 * The admin API's public calls: signing in, registering, exchanging and revoking a refresh token.
 * Kept short and explicit, here and in `routes/api/auth/admin/_middleware.ts`: a route becomes
 * public only by being named in both.
 */
export const PUBLIC_ADMIN_CALLS = [
  "/api/auth/admin/login",
  "/api/auth/admin/register",
  "/api/auth/admin/refresh",
  "/api/auth/admin/logout",
  "/api/auth/admin/two-factor/verify",
];

/** One method of one admin route, e.g. `GET /api/auth/admin/me`. */
export interface AdminOperation {
  method: string;
  /** OpenAPI-style, e.g. `/api/auth/admin/{id}/approve`. */
  template: string;
}

/**
 * Every method of every admin route that is not public, from the manifest (HEAD aside: it is GET's).
 *
 * @example
 * ```ts
 * protectedAdminOperations().some((o) => o.template === "/api/auth/admin/me"); // true
 * ```
 */
export function protectedAdminOperations(): AdminOperation[] {
  return discoverRoutes()
    .filter((r) =>
      ADMIN_FOLDERS.some((f) => r.template.startsWith(f)) && !PUBLIC_ADMIN_CALLS.includes(r.template)
    )
    .flatMap((r) =>
      r.methods.filter((m) => m !== "HEAD").map((method) => ({ method, template: r.template }))
    );
}
