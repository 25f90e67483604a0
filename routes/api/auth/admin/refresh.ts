import { accountsContext, refresh } from "@/lib/staff/accounts.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { readJson } from "@/lib/http/validation.ts";
import { RefreshSchema } from "@/lib/staff/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export { refreshDocs as docs } from "@/lib/staff/api_docs.ts";

/** `POST /api/auth/admin/refresh` {refreshToken} → `{ data: { accessToken, refreshToken } }`. */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const { refreshToken } = await readJson(req, RefreshSchema);
    return Response.json({ data: await refresh(accountsContext(ctx.state.services), refreshToken) });
  },
};
