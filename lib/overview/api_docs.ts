/**
 * The overview's API operation as the OpenAPI document describes it, which the route re-exports as
 * its `docs` (`lib/app/openapi.ts` builds the document from them).
 *
 * @module
 */
import { OverviewQuerySchema, OverviewSchema } from "./schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

/** `GET /api/overview`. */
export const overviewDocs: RouteDocs = {
  GET: {
    summary: "What needs attention today",
    description: "The back office's overview, for the caller's role only: gifts today, this month and " +
      "last month per currency (every role), monthly charges failing and when each is tried again (every " +
      "role), refunds pending (owner, admin, finance), email failing in the last seven days (owner, admin), " +
      "accounts waiting for approval (owner), kiosks not seen for a day (owner, admin). A part the role " +
      "may not see is absent, and is not read. Days and months are the museum's (`timeZone`). Each " +
      "figure's `href` is the back-office page of the filtered list behind it, in `lang`. Work is bounded: " +
      "each part reads an index range (two months of gifts, a week of email, the gifts due within a week) " +
      "and counts at most 200 records.",
    tags: ["overview"],
    auth: "bearer",
    query: OverviewQuerySchema,
    responses: {
      200: { description: "The parts the caller's role sees", schema: OverviewSchema },
      400: { description: "`lang` is not one of en, he, ru, pt, es" },
      403: { description: "The admin is not approved yet" },
    },
  },
};
