import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { listMembers } from "@/lib/memberships/member_list.ts";
import { MemberListQuerySchema } from "@/lib/memberships/schemas.ts";

export { membersListDocs as docs } from "@/lib/memberships/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: FINANCE } satisfies RouteRoles;

/** `GET /api/memberships?state&level&expiring&search&limit&cursor&lang` → a page of the members list. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const query = readQuery(ctx.url, MemberListQuerySchema);
    const page = await listMembers({ store, graceDays: config.memberships.graceDays }, query, new Date());
    return Response.json(page, { headers: { "cache-control": "no-store" } });
  },
});
