import { ADMINS, type RouteRoles } from "@/lib/staff/roles.ts";
import { auditPage } from "@/lib/audit/audit_log.ts";
import { AuditPageSchema, AuditQuerySchema } from "@/lib/audit/schemas.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/app/openapi.ts";

export const docs: RouteDocs = {
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

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: ADMINS } satisfies RouteRoles;

/** `GET /api/audit?actor&action&from&to&cursor&limit` → a page of the audit log (owners, admins). */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { cursor, limit, ...filter } = readQuery(ctx.url, AuditQuerySchema);
    const { store, config } = ctx.state.services;
    const page = await auditPage(
      store,
      { ...filter, timeZone: config.museumTimeZone },
      cursor ?? null,
      limit,
    );
    return Response.json(page, { headers: { "cache-control": "no-store" } });
  },
});
