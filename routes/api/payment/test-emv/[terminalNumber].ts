import { createDonor } from "@/lib/donors/donors.ts";
import { readFlags } from "@/lib/settings/flags.ts";
import type { Handlers } from "@/lib/framework/mod.ts";
import { readKioskSale } from "@/lib/http/kiosk_sale.ts";
import { HttpError } from "@/lib/http/validation.ts";
import { paymentsContext } from "@/lib/app/payments.ts";
import { createOnlinePayment } from "@/lib/donations/online.ts";
import { TestEmvSchema } from "@/lib/donations/schemas.ts";
import { FALLBACK_LANG } from "@/lib/shared/languages.ts";
import type { AppState } from "@/lib/app/state.ts";

/** A test payment is the smallest real amount: 1 NIS. */
const TEST_AMOUNT = 1;

export { testEmvDocs as docs } from "@/lib/donations/api_docs.ts";

/** `POST /api/payment/test-emv/{terminalNumber}` → `{ url }`. */
export const handler: Handlers<unknown, AppState> = {
  async POST(req, ctx) {
    const { services } = ctx.state;
    const flags = await readFlags(services.store);
    if (!flags.TEST_TERMINAL_PAYMENT) throw new HttpError(403, "Test terminal payments are switched off");
    const terminal = ctx.params.terminalNumber;
    if (!services.config.payments.testTerminals.includes(terminal)) {
      throw new HttpError(404, `${terminal} is not one of the test terminals`);
    }
    // The spec sends no body; an optional JSON one may name the language and shop.
    const text = await req.text();
    let raw: unknown = {};
    if (text.trim() !== "") {
      try {
        raw = JSON.parse(text);
      } catch {
        throw new HttpError(400, "The request body is not valid JSON");
      }
    }
    // A body signed with an integration's server key needs no device; anything else comes from a kiosk.
    const body = await readKioskSale(req, raw, {
      schema: TestEmvSchema,
      services,
      log: ctx.state.log,
      sale: (b) => ({ shopNumber: b.shopNumber ?? terminal, lang: b.language ?? FALLBACK_LANG }),
      signatureRequired: false,
    });
    const language = body.language ?? FALLBACK_LANG;
    const donor = await createDonor(services.store, {
      firstName: "Terminal test",
      lastName: terminal,
      email: `terminal-${terminal}@test.invalid`,
      country: "—",
    });
    const payments = paymentsContext(services, false, ctx.url, ctx.state.log);
    const { url } = await createOnlinePayment(
      payments,
      { amount: TEST_AMOUNT, currency: 1, userId: donor.id, isMonthly: false, language },
      "test-terminal",
      body.shopNumber ?? terminal,
    );
    return Response.json({ url });
  },
};
