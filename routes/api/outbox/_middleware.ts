import type { RouteContext } from "@/lib/framework/mod.ts";
import { signInAdmin } from "@/lib/http/admin_auth.ts";
import type { AppState } from "@/lib/app/state.ts";

/**
 * Every route under `/api/outbox` shows what the app sends to donors and staff: approved admins
 * only (401 without a valid access token, 403 for a pending admin).
 */
export async function handler(req: Request, ctx: RouteContext<unknown, AppState>): Promise<Response> {
  await signInAdmin(req, ctx, "approved");
  return await ctx.next();
}
