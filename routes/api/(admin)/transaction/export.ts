import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { actorEntry } from "@/lib/audit/actor.ts";
import { readQuery } from "@/lib/http/validation.ts";
import { ExportQuerySchema } from "@/lib/reports/transaction_schemas.ts";
import { exportFileName, transactionsCsv } from "@/lib/reports/transactions_export.ts";
import { museumDays } from "@/lib/reports/transactions.ts";

export { transactionsExportDocs as docs } from "@/lib/reports/api_docs.ts";

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: FINANCE } satisfies RouteRoles;

/** `GET /api/transaction/export?type&isMonthly&searchString&from&to&refund&lang`. */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const { services, log } = ctx.state;
    const query = readQuery(ctx.url, ExportQuerySchema);
    // An export writes nothing of its own: its entry is appended before the file is sent.
    await services.store.audit.append(
      [actorEntry(signedInActor(ctx), "export", null, {
        kind: "transactions",
        type: query.type,
        isMonthly: query.isMonthly ?? null,
        // Whether a search narrowed it, not what was typed (it may be a donor's address).
        searched: Boolean(query.searchString),
        ...(query.from || query.to ? { from: query.from ?? null, to: query.to ?? null } : {}),
        ...(query.refund ? { refund: query.refund } : {}),
      })],
      new Date().toISOString(),
    );
    const timeZone = services.config.museumTimeZone;
    const body = await transactionsCsv(services.store, {
      ...query,
      timeZone,
      range: museumDays(query, timeZone),
      refundPending: query.refund === "pending",
    }, {
      onError: (error) => log.error("transaction export failed after it began", { error }),
    });
    return new Response(body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${exportFileName(new Date(), timeZone)}"`,
        "cache-control": "no-store",
      },
    });
  },
});
