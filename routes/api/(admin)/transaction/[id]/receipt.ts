import { FINANCE, type RouteRoles } from "@/lib/staff/roles.ts";
import { withRoles } from "@/lib/app/with_roles.ts";
import { signedInAdmin } from "@/lib/http/admin_auth.ts";
import { readId, readQuery } from "@/lib/http/validation.ts";
import { adminReceiptPdf } from "@/lib/receipts/back_office.ts";
import { ReceiptPdfQuerySchema } from "@/lib/receipts/schemas.ts";

export { receiptPdfDocs as docs } from "@/lib/receipts/api_docs.ts";

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
