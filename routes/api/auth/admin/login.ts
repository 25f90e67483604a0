import { accountsContext, login } from "@/lib/staff/accounts.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { clientAddress } from "@/lib/http/client_address.ts";
import { readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { z } from "zod";
import { AdminLoginSchema, AdminSessionSchema } from "@/lib/staff/schemas.ts";
import { SecondFactorChallengeSchema } from "@/lib/staff/two_factor_schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Sign an admin in",
    description: "More than 5 failures within 15 minutes, per email or per client address, answer 429; " +
      "attempts in progress count, so a parallel burst gets at most 5 checked. When too many passwords " +
      "wait to be checked, 503 with Retry-After. An admin with two-factor gets `{ secondFactor, " +
      "pendingToken }` instead of a session: send a code to `two-factor/verify`. With two-factor required " +
      "and not set up, the session has `twoFactorEnrolmentDue: true` and opens only the enrolment.",
    tags: ["admins"],
    body: AdminLoginSchema,
    responses: {
      200: {
        description: "The profile and a session, or the code step's challenge",
        schema: z.union([AdminSessionSchema, SecondFactorChallengeSchema]),
      },
      401: { description: "Invalid credentials" },
      403: { description: "The account was rejected" },
      429: { description: "Too many failed attempts; see Retry-After" },
      503: { description: "Too many passwords being checked at once; see Retry-After" },
    },
  },
};

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
