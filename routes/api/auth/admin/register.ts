import { accountsContext, register } from "@/lib/staff/accounts.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { limitClient } from "@/lib/http/rate_limit.ts";
import { readJson } from "@/lib/http/validation.ts";
import { AdminRegisterSchema } from "@/lib/staff/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export { registerDocs as docs } from "@/lib/staff/api_docs.ts";

/** `POST /api/auth/admin/register` {email, password, name?} → profile + accessToken + refreshToken. */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const input = await readJson(req, AdminRegisterSchema);
    await limitClient(ctx, "registration");
    const session = await register(accountsContext(ctx.state.services), input);
    ctx.state.log.info("admin registered", { adminId: session.id, status: session.status });
    return Response.json(session, { status: 201 });
  },
};
