import { accountsContext, refresh } from "@/lib/staff/accounts.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { RefreshSchema, TokenPairSchema } from "@/lib/staff/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Exchange a refresh token for a new pair",
    description: "Each refresh token works once; using a spent one again revokes the whole session. A " +
      "session ends 30 days after its sign-in, however often it is refreshed.",
    tags: ["admins"],
    body: RefreshSchema,
    responses: {
      200: { description: "New tokens, inside `data`", schema: TokenPairSchema },
      401: { description: "Unknown, expired, spent or revoked refresh token, or a session past 30 days" },
    },
  },
};

/** `POST /api/auth/admin/refresh` {refreshToken} → `{ data: { accessToken, refreshToken } }`. */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const { refreshToken } = await readJson(req, RefreshSchema);
    return Response.json({ data: await refresh(accountsContext(ctx.state.services), refreshToken) });
  },
};
