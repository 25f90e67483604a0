import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { HttpError } from "@/lib/http/validation.ts";
import { resendMemberCard } from "@/lib/memberships/mod.ts";

export { resendMemberCardDocs as docs } from "@/lib/memberships/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { POST: FINANCE } satisfies RouteRoles;

const NUMBER = /^[0-9A-Z]{4}-[0-9A-Z]{4}$/;

/** `POST /api/memberships/{number}/resend-card` → 202, the member's cards queued again (finance and up). */
export const handler = withRoles(roles, {
  async POST(_req, ctx) {
    const actor = signedInActor(ctx);
    const number = ctx.params.number ?? "";
    if (!NUMBER.test(number)) throw new HttpError(404, "No membership with this number");
    const answer = await resendMemberCard(ctx.state.services.store, number, new Date(), actor);
    ctx.state.log.info("member card resend", { number, by: actor.admin.id, repeated: answer.repeated });
    return Response.json(answer, { status: 202 });
  },
});
