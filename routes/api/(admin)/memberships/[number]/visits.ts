import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { HttpError, readQuery } from "@/lib/http/validation.ts";
import { visitsOfMember } from "@/lib/visits/mod.ts";
import { MemberVisitsQuerySchema } from "@/lib/visits/schemas.ts";

export { memberVisitsDocs as docs } from "@/lib/visits/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`): as the member's page. */
export const roles = { GET: FINANCE } satisfies RouteRoles;

const NUMBER = /^[0-9A-Z]{4}-[0-9A-Z]{4}$/;

/** `GET /api/memberships/{number}/visits?limit&cursor&lang` → the member's visits, newest first. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const number = ctx.params.number ?? "";
    if (!NUMBER.test(number)) throw new HttpError(404, "No membership with this number");
    const query = readQuery(ctx.url, MemberVisitsQuerySchema);
    const page = await visitsOfMember(ctx.state.services.store, number, query);
    return Response.json(page, { headers: { "cache-control": "no-store" } });
  },
});
