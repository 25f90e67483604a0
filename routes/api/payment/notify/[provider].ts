import type { Handlers } from "@/lib/framework/mod.ts";
import { HttpError, readJsonValue } from "@/lib/http/validation.ts";
import { paymentsContext } from "@/lib/app/payments.ts";
import { completePayment } from "@/lib/donations/completion.ts";
import { completeCardUpdate } from "@/lib/monthly_gifts/card_update.ts";
import type { AppState } from "@/lib/app/state.ts";

export { paymentNotifyDocs as docs } from "@/lib/donations/api_docs.ts";

/** `POST /api/payment/notify/{provider}`: verify and record the payment it names. */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const { services } = ctx.state;
    const payments = paymentsContext(services, false, ctx.url, ctx.state.log);
    if (ctx.params.provider !== payments.provider.id) throw new HttpError(404, "Unknown payment provider");
    const { providerRef } = payments.provider.readNotification(await readJsonValue(req));
    if (!providerRef) throw new HttpError(400, "The notification names no transaction");
    const payment = await services.store.payments.getByProviderRef(payments.provider.id, providerRef);
    if (!payment) {
      // Not a donation: a donor portal card update's check (verified and applied the same way).
      const update = await services.store.cardUpdates.getByProviderRef(payments.provider.id, providerRef);
      if (!update) throw new HttpError(404, "No payment with this transaction id");
      const { outcome } = await completeCardUpdate(payments, update);
      return Response.json({ outcome });
    }
    const { outcome } = await completePayment(payments, payment);
    return Response.json({ outcome });
  },
};
