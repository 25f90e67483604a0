/**
 * The audit log API's payloads (`GET /api/audit`, `GET /api/audit/export`, `GET /api/audit/actors`),
 * as zod schemas: the queries are validated with them and the OpenAPI document describes them. Kept
 * beside `audit_log.ts`, which builds the answers.
 *
 * @module
 */
import { z } from "zod";
import { AUDIT_ACTIONS } from "@/lib/storage/audit_types.ts";

/** An instant or a day (`2026-11-24`, read as that day's start in the museum's time zone: `auditFilter`). */
const instant = (what: string) =>
  z.string().max(40, `${what} must be an ISO 8601 date or instant`).refine(
    (s) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/.test(s) && !Number.isNaN(Date.parse(s)),
    `${what} must be an ISO 8601 date (2026-11-24) or instant (2026-11-24T09:00:00Z)`,
  );

/** The filters both the page and the export take. */
export const AuditFilterSchema = z.object({
  actor: z.string().min(1, "actor must be an admin id").max(200, "actor must be an admin id").optional()
    .describe("Only this admin's actions (an admin id, as `GET /api/auth/admin/staff` lists them)"),
  action: z.enum(AUDIT_ACTIONS, { error: `action must be one of ${AUDIT_ACTIONS.join(", ")}` }).optional()
    .describe("Only this action"),
  from: instant("from").optional().describe(
    "Entries at or after (a date is its start in the museum's time zone)",
  ),
  to: instant("to").optional().describe(
    "Entries before (exclusive; a date is its start in the museum's time zone)",
  ),
});

/** `GET /api/audit` query. */
export const AuditQuerySchema = AuditFilterSchema.extend({
  cursor: z.string().max(200, "cursor is not valid: use the nextCursor of the previous page").optional()
    .describe("The previous page's nextCursor; none for the newest entries"),
  limit: z.string().regex(/^\d{1,3}$/, "limit must be a whole number from 1 to 200").transform(Number)
    .refine((n) => n >= 1 && n <= 200, "limit must be a whole number from 1 to 200").optional().default(50),
});

/** One entry as the API answers it. */
export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string().describe("ISO 8601"),
  action: z.enum(AUDIT_ACTIONS),
  actorId: z.string().nullable().describe(
    "The admin who acted; null for a failed sign-in of an unknown address",
  ),
  actorEmail: z.string(),
  address: z.string().describe("The client address the action came from"),
  target: z.string().nullable().describe("What was acted on: an admin, transaction or device id"),
  changes: z.record(z.string(), z.unknown()).describe("What changed, e.g. { role: { from, to } }"),
});

/** One page of `GET /api/audit`. */
export const AuditPageSchema = z.object({
  data: z.array(AuditEntrySchema).describe("Newest first"),
  nextCursor: z.string().nullable().describe("Pass as `cursor` for the next (older) page; null at the end"),
});

/** `GET /api/audit/actors`. */
export const AuditActorsSchema = z.array(z.object({ id: z.string(), email: z.string(), name: z.string() }));
