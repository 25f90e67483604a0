/**
 * The members API operations (issue 27, item 8) as the OpenAPI document describes them: one export
 * per route, which the route re-exports as its `docs` (`lib/app/openapi.ts` builds the document), and
 * the cards' resend (issue 27, item 3).
 *
 * @module
 */
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import {
  CardholdersBodySchema,
  MemberDetailSchema,
  MemberExportQuerySchema,
  MemberListQuerySchema,
  MemberPageSchema,
  MemberQuerySchema,
  MembershipReportQuerySchema,
  MembershipReportSchema,
  ResendMemberCardSchema,
} from "./schemas.ts";

const denied = { 403: { description: "The admin is not approved yet, or not finance or above" } };

/** `GET /api/memberships`. */
export const membersListDocs: RouteDocs = {
  GET: {
    summary: "The members list",
    description: "Memberships by end (then address), filtered by state (worked out now), the level of " +
      "the last term and ending within days, searched by member number, address or name. A page reads at " +
      "most 500 memberships: a filtered or searched page may hold fewer rows than asked with a `next`; " +
      "only `next: null` ends the list.",
    tags: ["memberships"],
    auth: "bearer",
    query: MemberListQuerySchema,
    responses: {
      200: { description: "A page", schema: MemberPageSchema },
      400: { description: "A filter, limit or cursor is not valid" },
      ...denied,
    },
  },
};

/** `GET /api/memberships/export`. */
export const membersExportDocs: RouteDocs = {
  GET: {
    summary: "The members list as CSV",
    description: "Every membership the filters and search match, as the list orders them: UTF-8 with a " +
      "byte order mark, the header in `lang`, cells a spreadsheet would read as formulas defused. Audited " +
      "(`export`, kind `memberships`).",
    tags: ["memberships"],
    auth: "bearer",
    query: MemberExportQuerySchema,
    responses: {
      200: { description: "The CSV file" },
      400: { description: "A filter is not valid" },
      ...denied,
    },
  },
};

/** `GET /api/memberships/{number}`. */
export const memberDocs: RouteDocs = {
  GET: {
    summary: "A member",
    description: "The membership of a member number (spaces, dashes and case forgiven): its state, terms " +
      "(newest first, with their levels' names), cardholders and the level's limit, the member's name and " +
      "address, and the emails to that address.",
    tags: ["memberships"],
    auth: "bearer",
    query: MemberQuerySchema,
    responses: {
      200: { description: "The member", schema: MemberDetailSchema },
      400: { description: "Not a member number" },
      404: { description: "No membership has this number" },
      ...denied,
    },
  },
};

/** `PUT /api/memberships/{number}/cardholders`. */
export const cardholdersDocs: RouteDocs = {
  PUT: {
    summary: "Correct a membership's cardholders",
    description: "Replaces the names the cards carry (each trimmed, 1..100 printable characters; at most " +
      "the level covers). Audited (`membership-cardholders-changed`, the names before and after) in the same " +
      "step.",
    tags: ["memberships"],
    auth: "bearer",
    body: CardholdersBodySchema,
    responses: {
      200: { description: "The member", schema: MemberDetailSchema },
      400: { description: "Not a member number, a name not valid, or more names than the level covers" },
      404: { description: "No membership has this number" },
      409: { description: "The membership kept changing meanwhile" },
      ...denied,
    },
  },
};

/** `GET /api/reports/memberships`. */
export const membershipReportDocs: RouteDocs = {
  GET: {
    summary: "Members per level and the renewal rate per month",
    description: "Active members now at each level, and for each of the last `months` months (the museum's " +
      "calendar): the terms that ended in it, how many were renewed before lapsing, how many are still in " +
      "grace, and the rate of the decided ones.",
    tags: ["memberships", "reports"],
    auth: "bearer",
    query: MembershipReportQuerySchema,
    responses: {
      200: { description: "The figures", schema: MembershipReportSchema },
      400: { description: "months is not 1..36" },
      ...denied,
    },
  },
};

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
