import type { Handlers } from "@/lib/framework/mod.ts";
import { readKioskSale } from "@/lib/http/kiosk_sale.ts";
import { HttpError, readJsonValue } from "@/lib/http/validation.ts";
import { currencyCode } from "@/lib/shared/money.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";
import { paymentsContext } from "@/lib/app/payments.ts";
import { terminalFor } from "@/lib/providers/mod.ts";
import { terminalPayment } from "@/lib/kiosk/terminal_sales.ts";
import { PayEmvSchema, TerminalResultSchema } from "@/lib/donations/schemas.ts";
import type { AppState } from "@/lib/app/state.ts";

export const docs: RouteDocs = {
  POST: {
    summary: "Take a donation at the kiosk's card terminal",
    description: "Starts a sale on the terminal configured for the shop number (TERMINALS; the sandbox " +
      "simulates a terminal for any shop), waits for the card up to the deadline, records the result and " +
      "answers it. Monthly donations are taken online only. Only a paired kiosk may start a sale: a body " +
      "signed with a browser key needs the kiosk's device cookie (paired in the back office), for this shop; " +
      "a body signed with a SIGNING_KEYS server key needs none. One sale waits at a terminal at a time.",
    tags: ["payments"],
    auth: "signature",
    body: PayEmvSchema,
    responses: {
      200: { description: "The terminal's result; StatusCode 000 is success", schema: TerminalResultSchema },
      403: { description: "No paired kiosk device for this shop (or a revoked one) sent the request" },
      409: { description: "A sale (this donation or another) is already waiting at the terminal" },
      503: { description: "The terminal service is not answering; nothing was charged" },
    },
  },
};

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
