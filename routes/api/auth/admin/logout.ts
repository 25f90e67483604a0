import { accountsContext, logout } from "@/lib/staff/accounts.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { readJson } from "@/lib/http/validation.ts";
import { RefreshSchema } from "@/lib/staff/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export { logoutDocs as docs } from "@/lib/staff/api_docs.ts";

/** `POST /api/auth/admin/logout` {refreshToken} → 204. */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const { refreshToken } = await readJson(req, RefreshSchema);
    await logout(accountsContext(ctx.state.services), refreshToken);
    return new Response(null, { status: 204 });
  },
};
