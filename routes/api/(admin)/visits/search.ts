import { DESK, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { searchDesk } from "@/lib/visits/mod.ts";
import { DeskSearchQuerySchema } from "@/lib/visits/schemas.ts";

export { deskSearchDocs as docs } from "@/lib/visits/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`): the front desk, admins, owners. */
export const roles = { GET: DESK } satisfies RouteRoles;

/** `GET /api/visits/search?q&lang` → at most 10 members. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const { q, lang } = readQuery(ctx.url, DeskSearchQuerySchema);
    const data = await searchDesk({ store, graceDays: config.memberships.graceDays }, q, new Date(), lang);
    return Response.json({ data }, { headers: { "cache-control": "no-store" } });
  },
});
