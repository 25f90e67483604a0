import { DESK, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { memberByCard, memberByNumber } from "@/lib/visits/mod.ts";
import { DeskMemberQuerySchema } from "@/lib/visits/schemas.ts";

export { deskMemberDocs as docs } from "@/lib/visits/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`): the front desk, admins, owners. */
export const roles = { GET: DESK } satisfies RouteRoles;

/** `GET /api/visits/member?token|number&lang` → the member as the front desk shows them. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const { token, number, lang } = readQuery(ctx.url, DeskMemberQuerySchema);
    const desk = { store, graceDays: config.memberships.graceDays, appSecret: config.appSecret };
    const now = new Date();
    const member = token !== undefined
      ? await memberByCard(desk, token, now, lang)
      : await memberByNumber(desk, number!, now, lang);
    return Response.json(member, { headers: { "cache-control": "no-store" } });
  },
});
