import type { Handlers } from "@/lib/framework/mod.ts";
import { requestAddress } from "@/lib/http/rate_limit.ts";
import { readSignedJson } from "@/lib/http/signed_body.ts";
import { currencyCode } from "@/lib/shared/money.ts";
import { paymentsContext } from "@/lib/app/payments.ts";
import { createOnlinePayment } from "@/lib/donations/online.ts";
import { CreatePaymentSchema } from "@/lib/donations/schemas.ts";
import { readFlags } from "@/lib/settings/flags.ts";
import { giftFieldsOf } from "@/lib/shared/gift_membership.ts";
import type { AppState } from "@/lib/app/state.ts";

export { createPaymentDocs as docs } from "@/lib/donations/api_docs.ts";

/**
 * `POST /api/payment/create` {amount, currency, userId, isMonthly, language, signature…, optional
 * levelId and gift…} → `{ url }`.
 */
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
    const { url } = await createOnlinePayment(payments, {
      ...body,
      currency: currencyCode(body.currency),
      gift: giftFieldsOf(body, body.language),
    });
    return Response.json({ url });
  },
};
