import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { readId, readQuery } from "@/lib/http/validation.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { adminReceiptPdf } from "@/lib/receipts/back_office.ts";
import { ReceiptPdfQuerySchema } from "@/lib/receipts/schemas.ts";

export const docs: RouteDocs = {
  GET: {
    summary: "A transaction's receipt (PDF)",
    description: "The legal receipt of a successful gift as a PDF attachment, in `lang`: the receipt " +
      "already issued (the number the donor's email carries), or a new one, issued now with the next " +
      "number of its series, when the receipt email has not been rendered yet.",
    tags: ["transactions"],
    auth: "bearer",
    query: ReceiptPdfQuerySchema,
    responses: {
      200: { description: "The PDF (`application/pdf`, as an attachment)" },
      403: { description: "The admin is not approved yet" },
      404: { description: "No such transaction" },
      409: { description: "The transaction is not a successful gift" },
      503: { description: "Receipts are not configured (RECEIPT_LEGAL_NAME)" },
    },
  },
};

/** Who may call it (`lib/staff/roles.ts`). */
export const roles = { GET: FINANCE } satisfies RouteRoles;

/** `GET /api/transaction/{id}/receipt?lang` → the receipt's PDF (approved admins). */
export const handler = withRoles(roles, {
  async GET(_req, ctx) {
    const admin = signedInAdmin(ctx.state);
    const id = readId(ctx.params.id, "transaction");
    const { lang } = readQuery(ctx.url, ReceiptPdfQuerySchema);
    const { store, config, receiptPdfs } = ctx.state.services;
    const pdf = await adminReceiptPdf(
      {
        store,
        settings: config.receipts,
        appSecret: config.appSecret,
        origin: config.publicUrl ?? ctx.url.origin,
        renderPdf: receiptPdfs.render,
      },
      id,
      lang,
    );
    ctx.state.log.info("receipt downloaded", { transactionId: id, by: admin.id });
    return new Response(pdf.content.slice(), {
      headers: {
        "content-type": pdf.contentType,
        "content-disposition": `attachment; filename="${pdf.filename}"`,
        "cache-control": "no-store",
      },
    });
  },
});
