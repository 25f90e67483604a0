/**
 * The front desk's API payloads (issue 28) as zod schemas: the look-ups' queries, the visit's body,
 * the answers. Queries and bodies are validated with them, and the OpenAPI document describes the
 * routes from them (`api_docs.ts`).
 *
 * @module
 */
import { z } from "zod";
import { langParam, text } from "@/lib/core/schema_fields.ts";
import { DESK_STATES } from "@/lib/shared/visits.ts";
import {
  MAX_VISIT_GUESTS,
  MAX_VISIT_NAME,
  MAX_VISIT_REASON,
  VISIT_KINDS,
} from "@/lib/storage/visit_types.ts";
import { VISIT_ID } from "@/lib/storage/visit_records.ts";

const Instant = z.string().describe("ISO 8601");
const lang = langParam.optional().default("en").describe("Language of the level names");

/** `GET /api/visits/member` query: a scanned card's token, or a member number. */
export const DeskMemberQuerySchema = z.object({
  token: z.string().max(2_000, "token is not a member card's code").optional()
    .describe("The member card's QR code as scanned (a signed token)"),
  number: z.string().max(40, "number is not a member number").optional().describe("A member number as typed"),
  lang,
}).refine((q) => (q.token === undefined) !== (q.number === undefined), {
  message: "Give either token or number",
  path: ["token"],
});

/** `GET /api/visits/search` query. */
export const DeskSearchQuerySchema = z.object({
  q: z.string({ error: "q is required" }).max(320, "q must be at most 320 characters")
    .describe("A member number, an address (or its start) or words of the name"),
  lang,
});

/** What the desk shows of a member. */
export const DeskMemberSchema = z.object({
  state: z.enum(DESK_STATES).describe(
    "Now, from storage (not from the card): active, grace, lapsed, or unknown",
  ),
  number: z.string().nullable(),
  name: z.string(),
  levelId: z.number().int().nullable(),
  levelName: z.string(),
  validUntil: Instant.nullable(),
  graceUntil: Instant.nullable(),
  cardholders: z.array(z.string()),
  holder: z.number().int().nullable().describe("The scanned card's cardholder (0-based)"),
  guests: z.number().int().describe("How many guests the level admits on a visit"),
}).meta({ id: "DeskMember" });

/** `GET /api/visits/search`'s answer. */
export const DeskSearchSchema = z.object({ data: z.array(DeskMemberSchema).describe("At most 10") });

/** `POST /api/visits` body. */
export const CheckInBodySchema = z.strictObject({
  id: z.string({ error: "id is required" }).regex(VISIT_ID, "id must be 16 to 64 of A-Z a-z 0-9 _ -")
    .describe("The desk's own id of this visit: the same id sent again records nothing more"),
  kind: z.enum(VISIT_KINDS, { error: "kind must be check-in or override" })
    .describe("check-in: a valid membership; override: allow anyway, with a reason"),
  number: z.string().max(40, "number is not a member number").nullable()
    .describe("The member number; null for a visitor with no membership (override only)"),
  holder: z.number({ error: "holder must be a number" }).int().min(0).max(19).optional()
    .describe("Which cardholder came (0-based)"),
  name: z.string().max(MAX_VISIT_NAME, `name must be at most ${MAX_VISIT_NAME} characters`).optional()
    .describe("The visitor's name when no membership names them"),
  guests: z.number({ error: "guests must be a number" }).int("guests must be a whole number")
    .min(0, `guests must be 0 to ${MAX_VISIT_GUESTS}`).max(
      MAX_VISIT_GUESTS,
      `guests must be 0 to ${MAX_VISIT_GUESTS}`,
    ),
  reason: text("reason", MAX_VISIT_REASON).optional().describe("Required for an override"),
  at: Instant.optional().describe(
    "When the desk let them in, if not now (a queued visit; at most 7 days back)",
  ),
});

/** A visit. */
export const VisitViewSchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  cardholder: z.string(),
  guests: z.number().int(),
  levelId: z.number().int().nullable(),
  levelName: z.string(),
  deskEmail: z.string().describe("The staff member at the desk"),
  at: Instant,
  kind: z.enum(VISIT_KINDS),
  reason: z.string().nullable(),
}).meta({ id: "Visit" });

/** `POST /api/visits`'s answer. */
export const CheckInAnswerSchema = z.object({
  visit: VisitViewSchema,
  repeated: z.boolean().describe("True when this id had been recorded before (nothing more was)"),
});

/** `GET /api/visits` query. */
export const VisitListQuerySchema = z.object({
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "day must be YYYY-MM-DD")
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), "day must be YYYY-MM-DD").optional()
    .describe("The museum's calendar day; today when not given"),
  limit: z.string().regex(/^\d{1,3}$/, "limit must be 1 to 200").transform(Number)
    .refine((n) => n >= 1 && n <= 200, "limit must be 1 to 200").optional().default(100),
  cursor: z.string().max(200, "cursor is not valid").optional(),
  lang,
});

/** `GET /api/memberships/{number}/visits` query. */
export const MemberVisitsQuerySchema = VisitListQuerySchema.omit({ day: true });

/** A page of visits. */
export const VisitPageSchema = z.object({
  data: z.array(VisitViewSchema).describe("Newest first"),
  next: z.string().nullable(),
});

/** `GET /api/visits/report` query. */
export const VisitReportQuerySchema = z.object({ lang });

/** `GET /api/visits/report`. */
export const VisitReportSchema = z.object({
  from: z.string().describe("The first day (the museum's calendar)"),
  to: z.string().describe("The last day, today"),
  perDay: z.array(z.object({
    day: z.string(),
    visits: z.number().int(),
    guests: z.number().int(),
    overrides: z.number().int(),
  })),
  perLevel: z.array(z.object({
    levelId: z.number().int().nullable(),
    levelName: z.string(),
    visits: z.number().int(),
    guests: z.number().int(),
  })),
  truncated: z.boolean(),
});
