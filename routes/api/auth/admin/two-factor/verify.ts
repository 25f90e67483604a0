import { accountsContext } from "@/lib/staff/accounts.ts";
import { verifySecondFactor } from "@/lib/staff/two_factor.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { AdminSessionSchema } from "@/lib/staff/schemas.ts";
import { TwoFactorVerifySchema } from "@/lib/staff/two_factor_schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Sign in: the code step",
    description:
      "Trades the password step's `pendingToken` (5 minutes) and a code of the authenticator app, " +
      "or a recovery code, for a session. Each code works once. Wrong codes count with wrong passwords: more " +
      "than 5 within 15 minutes, per email or per client address, answer 429.",
    tags: ["two-factor"],
    body: TwoFactorVerifySchema,
    responses: {
      200: { description: "The profile and a session", schema: AdminSessionSchema },
      401: { description: "A wrong or spent code, or an expired or changed pending token" },
      429: { description: "Too many failed attempts; see Retry-After" },
    },
  },
};

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
