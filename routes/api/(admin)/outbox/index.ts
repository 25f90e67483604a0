import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { outboxPage } from "@/lib/outbox/outbox_view.ts";
import { OutboxQuerySchema } from "@/lib/outbox/schemas.ts";
import { dayStart } from "@/lib/core/zoned_time.ts";

export { outboxDocs as docs } from "@/lib/outbox/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: ADMINS } satisfies RouteRoles;

/** `GET /api/outbox?cursor&limit&failingSince` → a page of the outbox (approved admins). */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { store, config } = ctx.state.services;
    const { cursor, limit, failingSince } = readQuery(ctx.url, OutboxQuerySchema);
    const filter = failingSince ? { failingSince: dayStart(failingSince, config.museumTimeZone) } : {};
    return Response.json(await outboxPage(store, config.appSecret, cursor ?? null, limit, filter));
  },
});
