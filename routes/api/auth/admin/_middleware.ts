import type { RouteContext } from "@/lib/framework/mod.ts";
import { type AdminAccess, signInAdmin } from "@/lib/http/admin_auth.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * The calls under `/api/auth/admin/` that anyone may make: signing in (and its code step),
 * registering, and exchanging or revoking a refresh token (each proves itself by its body). Keep this list short and explicit:
 * every other path here needs a signed-in admin.
 */
const PUBLIC = new Set(["login", "register", "refresh", "logout", "two-factor/verify"]);

/** The calls a pending admin may make too: who am I (the back office shows them their status). */
const PENDING_ALLOWED = new Set(["me"]);

/**
 * The calls open while two-factor is required and the admin has not set it up (the session is good
 * for these only): who am I, and the enrolment.
 */
const ENROLMENT_OPEN = new Set(["me", "two-factor", "two-factor/enrol", "two-factor/confirm"]);

/**
 * Every route under `/api/auth/admin/` but the {@link PUBLIC} ones needs a signed-in admin: an
 * approved one, except for {@link PENDING_ALLOWED} calls (401 without a valid access token, 403 for
 * a pending admin). The admin is on `ctx.state.admin`.
 */
export async function handler(req: Request, ctx: RouteContext<unknown, AppState>): Promise<Response> {
  // The path below the folder, as the router matches it (trailing slashes do not matter). Trimmed
  // by a loop: `/\/+$/` is tried at every slash, quadratic on a run of them (the router sends no
  // such path here today, but that should not be what keeps the event loop free).
  const below = ctx.url.pathname.slice("/api/auth/admin/".length);
  let end = below.length;
  while (end > 0 && below.charCodeAt(end - 1) === 0x2f) end--;
  const call = below.slice(0, end);
  if (!PUBLIC.has(call)) {
    const access: AdminAccess = PENDING_ALLOWED.has(call) ? "signed-in" : "approved";
    await signInAdmin(req, ctx, access, { enrolmentOpen: ENROLMENT_OPEN.has(call) });
  }
  return await ctx.next();
}
