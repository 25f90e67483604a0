import { accountsContext } from "@/lib/staff/accounts.ts";
import { verifySecondFactor } from "@/lib/staff/two_factor.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readJson } from "@/lib/http/validation.ts";
import { TwoFactorVerifySchema } from "@/lib/staff/two_factor_schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export { twoFactorVerifyDocs as docs } from "@/lib/staff/api_docs.ts";

/** `POST /api/auth/admin/two-factor/verify` `{ pendingToken, code }` → profile + tokens. */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const { services } = ctx.state;
    const body = await readJson(req, TwoFactorVerifySchema);
    const session = await verifySecondFactor(
      accountsContext(services),
      body,
      clientAddress(ctx.hono, services.config.trustProxy),
    );
    return Response.json(session);
  },
};
