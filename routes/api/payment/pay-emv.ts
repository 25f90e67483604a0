import type { Handlers } from "@/lib/framework/mod.ts";
import { readKioskSale } from "@/lib/http/kiosk_sale.ts";
import { HttpError, readJsonValue } from "@/lib/http/validation.ts";
import { currencyCode } from "@/lib/shared/money.ts";
import { paymentsContext } from "@/lib/app/payments.ts";
import { terminalFor } from "@/lib/providers/mod.ts";
import { terminalPayment } from "@/lib/kiosk/terminal_sales.ts";
import { PayEmvSchema } from "@/lib/donations/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export { payEmvDocs as docs } from "@/lib/donations/api_docs.ts";

/** `POST /api/payment/pay-emv` → `{ StatusCode, ErrorMessage, ResultData }`. */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const { services } = ctx.state;
    // Browser keys are handed to any page: only the kiosk's device cookie says a kiosk sent this.
    const raw = await readJsonValue(req);
    const body = await readKioskSale(req, raw, {
      schema: PayEmvSchema,
      services,
      log: ctx.state.log,
      sale: (b) => ({ shopNumber: b.shopNumber, lang: b.language }),
      signatureRequired: true,
    });
    if (body.isMonthly) {
      throw new HttpError(400, "Monthly donations cannot be taken at a terminal; use the online form", [{
        path: "isMonthly",
        message: "terminals take one-time donations",
      }]);
    }
    const terminalId = terminalFor(services.config, body.shopNumber);
    if (!terminalId) throw new HttpError(404, `No terminal is configured for shop ${body.shopNumber}`);
    const payments = paymentsContext(services, false, ctx.url, ctx.state.log);
    const result = await terminalPayment(
      payments,
      { ...body, currency: currencyCode(body.currency) },
      terminalId,
      services.config.payments.terminalDeadlineMs,
    );
    return Response.json(result);
  },
};
