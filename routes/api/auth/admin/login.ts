import { accountsContext, login } from "@/lib/staff/accounts.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readJson } from "@/lib/http/validation.ts";
import { AdminLoginSchema } from "@/lib/staff/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export { loginDocs as docs } from "@/lib/staff/api_docs.ts";

/** `POST /api/auth/admin/login` {email, password} → profile + accessToken + refreshToken. */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const { services } = ctx.state;
    const body = await readJson(req, AdminLoginSchema);
    const session = await login(
      accountsContext(services),
      body,
      clientAddress(ctx.hono, services.config.trustProxy),
    );
    return Response.json(session);
  },
};
