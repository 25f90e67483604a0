import { EVERY_ROLE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { dailyTotals } from "@/lib/reports/daily_totals.ts";
import { readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/app/openapi.ts";
import { DailyTotalsQuerySchema, DailyTotalsSchema } from "@/lib/reports/transaction_schemas.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "Successful donations per day",
    description: "The last `days` days in the museum's time zone (`timeZone`), today included, oldest " +
      "first: every day, with one total per " +
      "currency that had successful donations (amounts in minor units; errors do not count). Data " +
      "only: the back office draws its chart from these figures.",
    tags: ["transactions"],
    auth: "bearer",
    query: DailyTotalsQuerySchema,
    responses: {
      200: { description: "The window's days", schema: DailyTotalsSchema },
      403: { description: "The admin is not approved yet" },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: EVERY_ROLE } satisfies RouteRoles;

/** `GET /api/transaction/daily-totals?days`. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { services } = ctx.state;
    const query = readQuery(ctx.url, DailyTotalsQuerySchema);
    return Response.json(await dailyTotals(services.store, query, services.config.museumTimeZone));
  },
});
