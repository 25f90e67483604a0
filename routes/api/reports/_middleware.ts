import type { RouteContext } from "@/lib/framework/mod.ts";
import { signInAdmin } from "@/lib/http/admin_auth.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * Every route under `/api/reports/` shows the museum's figures: approved admins only (401 without
 * a valid access token, 403 for a pending admin); each route then declares its roles.
 */
export async function handler(req: Request, ctx: RouteContext<unknown, AppState>): Promise<Response> {
  await signInAdmin(req, ctx, "approved");
  return await ctx.next();
}
