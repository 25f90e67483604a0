/**
 * The outbox's API operations as the OpenAPI document describes them: one export per route, which the route
 * re-exports as its `docs` (`lib/app/openapi.ts` builds the document from them).
 *
 * @module
 */
import { OutboxPageSchema, OutboxQuerySchema } from "./schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

/** `GET /api/outbox`. */
export const outboxDocs: RouteDocs = {
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
