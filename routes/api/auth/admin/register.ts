import { accountsContext, register } from "@/lib/staff/accounts.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { limitClient } from "@/lib/http/rate_limit.ts";
import { readJson } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { AdminRegisterSchema, AdminSessionSchema } from "@/lib/staff/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Register an admin",
    description: "Under ADMIN_REGISTRATION=approval the first admin is approved at once and later ones are " +
      "pending until an approved admin approves them; `closed` answers 403.",
    tags: ["admins"],
    body: AdminRegisterSchema,
    responses: {
      201: { description: "The profile and a session", schema: AdminSessionSchema },
      403: { description: "Registration is closed" },
      409: { description: "The email is already registered" },
      503: { description: "Too many passwords being checked at once; see Retry-After" },
      429: { description: "Too many registrations from this address, or from everyone; see Retry-After" },
    },
  },
};

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
