import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { DonorQuerySchema, DonorViewSchema } from "@/lib/donors/schemas.ts";
import { donorView } from "@/lib/donors/donor_view.ts";
import { readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "A donor's gifts, by email address",
    description: "Everything under one email address, across every donor record with it: each gift " +
      "and declined attempt (newest first), the lifetime total per currency of the successful gifts, " +
      "the first and last gift, and every monthly gift with its state (active, paused until its next " +
      "charge, failing, cancelled with the donor's reason, ended). A declined attempt has the error " +
      "catalogue's text for its code in `lang` beside the provider's own message. Never a donor id or " +
      "a card token.",
    tags: ["donors"],
    auth: "bearer",
    query: DonorQuerySchema,
    responses: {
      200: { description: "The donor view", schema: DonorViewSchema },
      400: { description: "Missing or invalid email" },
      403: { description: "The admin is not approved yet" },
      404: { description: "No donor record has this email address" },
    },
  },
};

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
