import { EVERY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { OverviewQuerySchema, readOverview } from "@/lib/overview/mod.ts";

export { overviewDocs as docs } from "@/lib/overview/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`): everyone; the answer holds only the caller's role's parts. */
export const roles = { GET: EVERY_ROLE } satisfies RouteRoles;

/** `GET /api/overview?lang` → the overview for the caller's role. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const { lang } = readQuery(ctx.url, OverviewQuerySchema);
    const role = signedInAdmin(ctx.state).role!;
    return Response.json(await readOverview({ store, timeZone: config.museumTimeZone }, { role, lang }));
  },
});
