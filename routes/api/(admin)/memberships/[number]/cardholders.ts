import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readJson, readQuery } from "@/lib/http/validation.ts";
import { changeCardholders, memberDetail } from "@/lib/memberships/member_page.ts";
import { CardholdersBodySchema, MemberQuerySchema } from "@/lib/memberships/schemas.ts";

export { cardholdersDocs as docs } from "@/lib/memberships/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { PUT: FINANCE } satisfies RouteRoles;

/** `PUT /api/memberships/{number}/cardholders?lang` { cardholders } → the member's page as changed. */
export const handler = withRoles(roles, {
  async PUT(req, ctx) {
    const { store, config } = ctx.state.services;
    const { lang } = readQuery(ctx.url, MemberQuerySchema);
    const { cardholders } = await readJson(req, CardholdersBodySchema);
    const members = { store, graceDays: config.memberships.graceDays };
    const now = new Date();
    const stored = await changeCardholders(
      members,
      signedInActor(ctx),
      ctx.params.number ?? "",
      cardholders,
      now,
    );
    const detail = await memberDetail(members, stored.number, now, lang);
    return Response.json(detail, { headers: { "cache-control": "no-store" } });
  },
});
