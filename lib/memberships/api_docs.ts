/**
 * The memberships' API operations' docs (one `RouteDocs` per route, `lib/core/route_docs.ts`).
 *
 * @module
 */
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { ResendMemberCardSchema } from "./schemas.ts";

/** `POST /api/memberships/{number}/resend-card`. */
export const resendMemberCardDocs: RouteDocs = {
  POST: {
    summary: "Resend a member's cards",
    description: "Queues the member card email again (a PDF card per cardholder, drawn when sent) to the " +
      "member's address on file, in the language of the latest membership email. A second request within " +
      "10 seconds answers the first with `repeated: true` and sends nothing more. Audited (`member-card-resent`).",
    tags: ["memberships"],
    auth: "bearer",
    responses: {
      202: { description: "Queued for sending", schema: ResendMemberCardSchema },
      403: { description: "Not finance, manager or owner, or not approved yet" },
      404: { description: "No membership with this number" },
    },
  },
};
