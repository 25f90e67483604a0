import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { signedInActor } from "@/lib/http/admin_auth.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { actorEntry } from "@/lib/audit/actor.ts";
import { z } from "zod";
import { readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/app/openapi.ts";
import { ExportQuerySchema } from "@/lib/reports/transaction_schemas.ts";
import { exportFileName, transactionsCsv } from "@/lib/reports/transactions_export.ts";
import { museumDays } from "@/lib/reports/transactions.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "Every matching transaction as a CSV file",
    description: "All rows matching the filters, not one page, newest first; with `type=all` successes " +
      "and errors merged by time. The filters are the lists' (`isMonthly`, `from` and `to` apply to both " +
      "kinds; `refund=pending` keeps the gifts with a refund pending). " +
      "UTF-8 with a byte order mark, RFC 4180 (CRLF, quoted fields). Columns: Date (UTC, " +
      "`YYYY-MM-DD HH:MM:SS`), Status, Status code, First name, Last name, Email, Payment type, " +
      "Card number, Credit type, Amount (major units, two decimals, dot), Currency (ILS or USD), " +
      "Error message, Transaction ID; the header row and the Status and Payment type words in " +
      "`lang`. Cells that a spreadsheet would read as a formula start with `'`. The body is " +
      "streamed: a storage failure after the first rows aborts the response (it is logged). Each export " +
      "is audited (`export`, with its filters).",
    tags: ["transactions"],
    auth: "bearer",
    query: ExportQuerySchema,
    responses: {
      200: {
        description: "The CSV file (UTF-8, with a byte order mark)",
        mediaType: "text/csv",
        schema: z.string(),
        headers: {
          "Content-Disposition": 'attachment; filename="transactions-YYYY-MM-DD.csv" (the UTC date)',
        },
      },
      403: { description: "The admin is not approved yet" },
    },
  },
};

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
    const body = await transactionsCsv(services.store, {
      ...query,
      range: museumDays(query, services.config.museumTimeZone),
      refundPending: query.refund === "pending",
    }, {
      onError: (error) => log.error("transaction export failed after it began", { error }),
    });
    return new Response(body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${exportFileName(new Date())}"`,
        "cache-control": "no-store",
      },
    });
  },
});
