import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { memberDetail } from "@/lib/memberships/member_page.ts";
import { MemberQuerySchema } from "@/lib/memberships/schemas.ts";

export { memberDocs as docs } from "@/lib/memberships/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: FINANCE } satisfies RouteRoles;

/** `GET /api/memberships/{number}?lang` → a member's page. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const { lang } = readQuery(ctx.url, MemberQuerySchema);
    const ctxMembers = { store, graceDays: config.memberships.graceDays };
    const detail = await memberDetail(ctxMembers, ctx.params.number ?? "", new Date(), lang);
    return Response.json(detail, { headers: { "cache-control": "no-store" } });
  },
});
