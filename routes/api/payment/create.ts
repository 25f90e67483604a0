import type { Handlers } from "@/lib/framework/mod.ts";
import { requestAddress } from "@/lib/http/rate_limit.ts";
import { readSignedJson } from "@/lib/http/signed_body.ts";
import { currencyCode } from "@/lib/shared/money.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { paymentsContext } from "@/lib/app/payments.ts";
import { createOnlinePayment } from "@/lib/donations/online.ts";
import { CreatePaymentSchema, PaymentUrlSchema } from "@/lib/donations/schemas.ts";
import { readFlags } from "@/lib/settings/flags.ts";
import type { AppState } from "@/lib/app/state.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Start an online payment",
    description: "Records a pending payment and answers the provider's hosted page for the payment frame. " +
      "A repeated identical request within a minute answers the same payment. Monthly only while " +
      "MONTHLY_PAYMENT is on. Limited per client address and globally (RATE_LIMIT_*), and refused while the " +
      "donor's email or the address has too many declined payments (DECLINE_*): 429 with Retry-After.",
    tags: ["payments"],
    auth: "signature",
    body: CreatePaymentSchema,
    responses: {
      200: { description: "The page to show in the payment frame", schema: PaymentUrlSchema },
      429: { description: "Too many payments, or declined payments, from this client; see Retry-After" },
      503: { description: "The provider is not answering; nothing was charged" },
    },
  },
};

/** `POST /api/payment/create` {amount, currency, userId, isMonthly, language, signature…} → `{ url }`. */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const { services } = ctx.state;
    const body = await readSignedJson(req, CreatePaymentSchema, services);
    const flags = await readFlags(services.store);
    const payments = paymentsContext(
      services,
      flags.MONTHLY_PAYMENT,
      ctx.url,
      ctx.state.log,
      requestAddress(ctx),
    );
    const { url } = await createOnlinePayment(payments, { ...body, currency: currencyCode(body.currency) });
    return Response.json({ url });
  },
};
