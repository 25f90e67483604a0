import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { actorEntry } from "@/lib/audit/actor.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { membersCsv, membersFileName } from "@/lib/memberships/members_export.ts";
import { MemberExportQuerySchema } from "@/lib/memberships/schemas.ts";

export { membersExportDocs as docs } from "@/lib/memberships/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: FINANCE } satisfies RouteRoles;

/** `GET /api/memberships/export?state&level&expiring&search&lang` → the members list as CSV. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const query = readQuery(ctx.url, MemberExportQuerySchema);
    const now = new Date();
    // Whether a search narrowed it, not what was typed (it may be a member's address).
    const { search, lang: _, ...filters } = query;
    await store.audit.append(
      [actorEntry(signedInActor(ctx), "export", null, {
        kind: "memberships",
        ...filters,
        searched: !!search,
      })],
      now.toISOString(),
    );
    const body = membersCsv(
      { store, graceDays: config.memberships.graceDays },
      query,
      now,
      config.museumTimeZone,
    );
    return new Response(body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${membersFileName(now, config.museumTimeZone)}"`,
        "cache-control": "no-store",
      },
    });
  },
});
