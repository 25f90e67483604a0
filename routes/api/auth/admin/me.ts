import { profile } from "@/lib/staff/accounts.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import type { AppState } from "@/lib/app/state.ts";

export { meDocs as docs } from "@/lib/staff/api_docs.ts";

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
