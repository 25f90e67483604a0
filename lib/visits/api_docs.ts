/**
 * The front desk's API operations (issue 28) as the OpenAPI document describes them: one export per
 * route, which the route re-exports as its `docs` (`lib/app/openapi.ts` builds the document).
 *
 * @module
 */
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import {
  CheckInAnswerSchema,
  CheckInBodySchema,
  DeskMemberQuerySchema,
  DeskMemberSchema,
  DeskSearchQuerySchema,
  DeskSearchSchema,
  MemberVisitsQuerySchema,
  VisitListQuerySchema,
  VisitPageSchema,
  VisitReportQuerySchema,
  VisitReportSchema,
} from "./schemas.ts";

const desk = { 403: { description: "Not the front desk, an admin or an owner, or not approved yet" } };

/** `GET /api/visits/member`. */
export const deskMemberDocs: RouteDocs = {
  GET: {
    summary: "Look a member up at the front desk",
    description: "By the member card's scanned QR code (a token signed with the card key: a changed or " +
      "foreign one answers 400; one past its expiry still names its member) or by member number. The state " +
      "is read now from storage, not from the card: `unknown` when no membership has the number.",
    tags: ["front desk"],
    auth: "bearer",
    query: DeskMemberQuerySchema,
    responses: {
      200: { description: "The member as the desk shows them", schema: DeskMemberSchema },
      400: { description: "Not a valid card, not a member number, or neither given" },
      ...desk,
    },
  },
};

/** `GET /api/visits/search`. */
export const deskSearchDocs: RouteDocs = {
  GET: {
    summary: "Search members at the front desk",
    description: "The members list's search (a member number, an address or its start, words of the name), " +
      "at most 10 members.",
    tags: ["front desk"],
    auth: "bearer",
    query: DeskSearchQuerySchema,
    responses: {
      200: { description: "The members found", schema: DeskSearchSchema },
      400: { description: "Fewer than 2 characters" },
      ...desk,
    },
  },
};

/** `GET /api/visits` and `POST /api/visits`. */
export const visitsDocs: RouteDocs = {
  GET: {
    summary: "A day's visits",
    description: "The visits of one day of the museum's calendar (today by default), newest first.",
    tags: ["front desk"],
    auth: "bearer",
    query: VisitListQuerySchema,
    responses: {
      200: { description: "A page", schema: VisitPageSchema },
      400: { description: "A day, limit or cursor that is not valid" },
      ...desk,
    },
  },
  POST: {
    summary: "Check a member in, or allow a visitor anyway",
    description: "Records a visit: `check-in` for a membership valid now (active or in grace) with at most " +
      "the guests its level admits (409 otherwise); `override` for anyone, with a reason. Audited " +
      "(`member-checked-in`, `member-check-in-override`) with the visit, in one write. The desk's `id` makes " +
      "it idempotent: the same id again answers the visit recorded first (200, `repeated: true`).",
    tags: ["front desk"],
    auth: "bearer",
    body: CheckInBodySchema,
    responses: {
      201: { description: "Recorded", schema: CheckInAnswerSchema },
      200: { description: "This id was recorded before", schema: CheckInAnswerSchema },
      400: { description: "A field is not valid, or an override without its reason" },
      409: { description: "A check-in the membership does not allow (lapsed, unknown, too many guests)" },
      ...desk,
    },
  },
};

/** `GET /api/visits/report`. */
export const visitReportDocs: RouteDocs = {
  GET: {
    summary: "Visits per day and per level",
    description: "The last 30 days of the museum's calendar: visits, guests and overrides per day, visits " +
      "and guests per level.",
    tags: ["front desk", "reports"],
    auth: "bearer",
    query: VisitReportQuerySchema,
    responses: {
      200: { description: "The figures", schema: VisitReportSchema },
      403: { description: "The front desk role, or not approved yet" },
    },
  },
};

/** `GET /api/memberships/{number}/visits`. */
export const memberVisitsDocs: RouteDocs = {
  GET: {
    summary: "A member's visits",
    description: "The visits of one member, newest first.",
    tags: ["front desk", "memberships"],
    auth: "bearer",
    query: MemberVisitsQuerySchema,
    responses: {
      200: { description: "A page", schema: VisitPageSchema },
      400: { description: "A limit or cursor that is not valid" },
      403: { description: "Not finance or above, or not approved yet" },
      404: { description: "Not a member number" },
    },
  },
};
