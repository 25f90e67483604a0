import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { DonorQuerySchema } from "@/lib/donors/schemas.ts";
import { donorView } from "@/lib/donors/donor_view.ts";
import { readQuery } from "@/lib/http/validation.ts";

export { donorGiftsDocs as docs } from "@/lib/donors/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: FINANCE } satisfies RouteRoles;

/** `GET /api/donor?email&lang` → the donor view of that address (approved admins). */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { email, lang } = readQuery(ctx.url, DonorQuerySchema);
    const view = await donorView(ctx.state.services.store, email, new Date(), lang);
    return Response.json(view, { headers: { "cache-control": "no-store" } });
  },
});
