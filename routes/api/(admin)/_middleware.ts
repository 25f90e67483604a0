import type { RouteContext } from "@/lib/framework/mod.ts";
import { signInAdmin } from "@/lib/http/admin_auth.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * Every route of the back office's API in this group (`/api/donor`, `/api/audit`,
 * `/api/kiosk-devices`, `/api/settings`, `/api/outbox`, `/api/transaction`, `/api/reports`; the
 * `(admin)` folder adds nothing to the URL): approved admins only (401 without a valid access token,
 * 403 for a pending admin, or while a required second factor is not set up); each route then
 * declares its roles. The admin is on `ctx.state.admin`. `/api/auth/admin/` keeps its own
 * middleware: its sign-in calls are public, and a pending admin may ask who they are.
 */
export async function handler(req: Request, ctx: RouteContext<unknown, AppState>): Promise<Response> {
  await signInAdmin(req, ctx, "approved");
  return await ctx.next();
}
