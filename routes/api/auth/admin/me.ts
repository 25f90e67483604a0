import { profile } from "@/lib/staff/accounts.ts";
import { z } from "zod";
import type { Handlers } from "@/lib/framework/mod.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { AdminSchema } from "@/lib/staff/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "The signed-in admin",
    description: "Answers for pending admins too, so the back office can show them their status. " +
      "`twoFactorEnrolmentDue`: two-factor is required and not set up (only enrolment is open).",
    tags: ["admins"],
    auth: "bearer",
    responses: {
      200: {
        description: "The profile",
        schema: AdminSchema.extend({ twoFactorEnrolmentDue: z.boolean() }),
      },
    },
  },
};

/**
 * `GET /api/auth/admin/me` → the current admin's profile (pending admins too: `_middleware.ts`), and
 * whether two-factor enrolment is due (the back office then sends the admin to it).
 */
export const handler: Handlers<unknown, AppState> = {
  async GET(_req, ctx) {
    const admin = signedInAdmin(ctx.state);
    const twoFactor = await ctx.state.services.store.twoFactor.state(admin.id);
    const due = admin.status === "approved" && twoFactor.required && !twoFactor.enrolled;
    return Response.json({ ...profile(admin), twoFactorEnrolmentDue: due });
  },
};
