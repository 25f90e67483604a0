import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { outboxPage } from "@/lib/mail/outbox_view.ts";
import type { RouteDocs } from "@/lib/app/openapi.ts";
import { OutboxPageSchema, OutboxQuerySchema } from "@/lib/mail/schemas.ts";
import { dayStart } from "@/lib/core/zoned_time.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "Recent outbox messages",
    description: "The messages the app sends (receipts, welcomes, failed charges, ...), newest first, " +
      "with their delivery's state: queued (with its next attempt), sent, skipped or failed (with the " +
      "reason), and the attempts so far. Never a message's content or its recipient's id or address. " +
      "Pass `nextCursor` as `cursor` for the next (older) page. `failingSince` keeps the messages in " +
      "trouble (failed, or waiting for a retry after a failed attempt) enqueued since that museum day.",
    tags: ["outbox"],
    auth: "bearer",
    query: OutboxQuerySchema,
    responses: {
      200: { description: "One page", schema: OutboxPageSchema },
      400: { description: "Invalid cursor or limit" },
      403: { description: "The admin is not approved yet" },
    },
  },
};

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
