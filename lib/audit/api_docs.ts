/**
 * The audit log's API operations as the OpenAPI document describes them: one export per route, which the
 * route re-exports as its `docs` (`lib/app/openapi.ts` builds the document from them).
 *
 * @module
 */
import { z } from "zod";
import { AuditActorsSchema, AuditFilterSchema, AuditPageSchema, AuditQuerySchema } from "./schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

/** `GET /api/audit`. */
export const auditLogDocs: RouteDocs = {
  GET: {
    summary: "The audit log",
    description: "What the staff did (sign-ins and failures, approvals, role changes, deactivations, " +
      "refunds, receipt resends, exports, flag changes, kiosk pairing), newest first, with who, when, " +
      "from which address and what changed. Filters: `actor` (an admin id), `action`, `from` and `to` " +
      "(a date, which starts at midnight in the museum's time zone, or an instant; `to` exclusive). Pass `nextCursor` as `cursor` for the next (older) page. " +
      "The log is append-only: no route edits or deletes an entry.",
    tags: ["audit"],
    auth: "bearer",
    query: AuditQuerySchema,
    responses: {
      200: { description: "One page", schema: AuditPageSchema },
      400: { description: "An invalid filter, limit or cursor" },
      403: { description: "The caller is not an owner or an admin" },
    },
  },
};

/** `GET /api/audit/actors`. */
export const auditActorsDocs: RouteDocs = {
  GET: {
    summary: "The staff the audit log can be filtered by",
    description: "Active and deactivated admins (id, email, name), by email: the `actor` filter's choices.",
    tags: ["audit"],
    auth: "bearer",
    responses: {
      200: { description: "The admins", schema: AuditActorsSchema },
      403: { description: "The caller is not an owner or an admin" },
    },
  },
};

/** `GET /api/audit/export`. */
export const auditExportDocs: RouteDocs = {
  GET: {
    summary: "The audit log as a CSV file",
    description: "Every entry matching the filters (those of `GET /api/audit`), newest first. UTF-8 with " +
      "a byte order mark, RFC 4180 (CRLF, quoted fields). Columns: Time (UTC, `YYYY-MM-DD HH:MM:SS`), " +
      "Action, Who (the email), Admin ID, Address, Target, Changes (JSON). Cells a spreadsheet would " +
      "read as a formula start with `'`. Streamed: a storage failure after the first rows aborts the " +
      "response (it is logged).",
    tags: ["audit"],
    auth: "bearer",
    query: AuditFilterSchema,
    responses: {
      200: {
        description: "The CSV file (UTF-8, with a byte order mark)",
        mediaType: "text/csv",
        schema: z.string(),
        headers: { "Content-Disposition": 'attachment; filename="audit-YYYY-MM-DD.csv" (the UTC date)' },
      },
      400: { description: "An invalid filter" },
      403: { description: "The caller is not an owner or an admin" },
    },
  },
};
