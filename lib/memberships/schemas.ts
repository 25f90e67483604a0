/**
 * The back office's members API payloads (issue 27, item 8) as zod schemas: the list's query, a
 * member's page, the cardholders' body; and the cards' resend answer. Queries and bodies are validated with them, and the
 * OpenAPI document describes the routes from them (`api_docs.ts`).
 *
 * @module
 */
import { z } from "zod";
import { langParam, text } from "@/lib/core/schema_fields.ts";
import { MEMBERSHIP_STATES } from "@/lib/shared/memberships.ts";
import { MAX_CARDHOLDER_NAME, MAX_CARDHOLDERS, TERM_KINDS } from "@/lib/storage/membership_types.ts";

/** Largest page of the members list, and its default. */
export const MAX_MEMBERS_LIMIT = 100;
const DEFAULT_MEMBERS_LIMIT = 50;
/** The longest "ending within" the list takes, in days. */
export const MAX_EXPIRING_DAYS = 366;

const whole = (name: string, min: number, max: number) =>
  z.string().regex(/^\d{1,4}$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be a whole number from ${min} to ${max}`);

const Instant = z.string().describe("ISO 8601");
const State = z.enum(MEMBERSHIP_STATES).describe("Worked out now: active, grace (after the end), lapsed");

/** `GET /api/memberships/export` query: the list's filters and search. */
export const MemberExportQuerySchema = z.object({
  state: State.optional(),
  level: whole("level", 1, 999).optional().describe("Only memberships whose last term is at this level id"),
  expiring: whole("expiring", 1, MAX_EXPIRING_DAYS).optional()
    .describe("Only memberships ending from now to this many days on"),
  search: z.string().max(320, "search must be at most 320 characters").optional()
    .describe("A member number (exact), an address (with @: exact or its start) or words of the name"),
  lang: langParam.optional().default("en").describe("Language of the level names and states"),
});

/** `GET /api/memberships` query. */
export const MemberListQuerySchema = MemberExportQuerySchema.extend({
  limit: whole("limit", 1, MAX_MEMBERS_LIMIT).optional().default(DEFAULT_MEMBERS_LIMIT),
  cursor: z.string().max(400, "cursor is not valid").optional().describe("The `next` of the previous page"),
});

/** `GET /api/memberships/{number}` query. */
export const MemberQuerySchema = z.object({
  lang: langParam.optional().default("en").describe("Language of the level names"),
});

/** `PUT /api/memberships/{number}/cardholders` body. */
export const CardholdersBodySchema = z.object({
  cardholders: z.array(text("cardholder", MAX_CARDHOLDER_NAME), {
    error: "cardholders must be a list of names",
  })
    .max(MAX_CARDHOLDERS, `at most ${MAX_CARDHOLDERS} cardholders`)
    .describe(
      "The names the cards carry (at most the level's cardholders); empty: the one card names the member",
    ),
});

/** One row of the members list. */
export const MemberRowSchema = z.object({
  number: z.string(),
  email: z.string(),
  name: z.string().describe("The member's donor record's name"),
  levelId: z.number().int().describe("The level of the last term"),
  levelName: z.string(),
  state: State,
  end: Instant.describe("The end of the paid terms"),
  graceUntil: Instant,
  cardholders: z.array(z.string()),
  monthly: z.boolean(),
});

/** `GET /api/memberships`. */
export const MemberPageSchema = z.object({
  data: z.array(MemberRowSchema),
  next: z.string().nullable().describe("Where the next page starts; null: the list ends here"),
});

/** `GET /api/memberships/{number}`. */
export const MemberDetailSchema = MemberRowSchema.extend({
  createdAt: Instant,
  maxCardholders: z.number().int(),
  terms: z.array(z.object({
    levelId: z.number().int(),
    levelName: z.string(),
    start: Instant,
    end: Instant,
    kind: z.enum(TERM_KINDS),
    amount: z.number().int().describe("Minor units"),
    currency: z.union([z.literal(1), z.literal(2)]),
    charges: z.number().int(),
  })).describe("Newest first"),
  emails: z.array(z.object({
    kind: z.string(),
    createdAt: Instant,
    state: z.enum(["queued", "sent", "skipped", "failed"]),
    settledAt: Instant.nullable(),
  })).describe("Messages to the member's address, newest first (at most 50)"),
  autoRenew: z.object({
    last4: z.string().nullable().describe("The kept card's last four digits"),
    nextCharge: Instant.describe("The membership's end, or the retry after a declined charge"),
    failedAttempts: z.number().int().describe("Charges for this end declined so far"),
  }).nullable().describe("Automatic renewal; null while off (no card kept)"),
});

/** `GET /api/reports/memberships` query. */
export const MembershipReportQuerySchema = z.object({
  months: whole("months", 1, 36).optional().default(12).describe("How many months, up to this one"),
  lang: langParam.optional().default("en").describe("Language of the level names"),
});

/** `GET /api/reports/memberships`. */
export const MembershipReportSchema = z.object({
  perLevel: z.array(z.object({ levelId: z.number().int(), levelName: z.string(), count: z.number().int() }))
    .describe("Active members now per level"),
  total: z.number().int(),
  months: z.array(z.object({
    month: z.string().describe("YYYY-MM, the museum's calendar"),
    ended: z.number().int().describe("Terms that ended in the month"),
    renewed: z.number().int().describe("Of them, renewed before lapsing"),
    pending: z.number().int().describe("Of them, still in grace"),
    rate: z.number().nullable().describe("renewed / (ended - pending); null when none is decided"),
  })),
});

/** What `POST /api/memberships/{number}/resend-card` answers. */
export const ResendMemberCardSchema = z.object({
  key: z.string().describe("The queued message's outbox key"),
  repeated: z.boolean().describe("True when a resend asked for within the last 10 seconds answered instead"),
}).meta({ id: "ResendMemberCard" });
