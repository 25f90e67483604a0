/**
 * Taking a gift's (`/api/payment/…`) API operations as the OpenAPI document describes them: one export per
 * route, which the route re-exports as its `docs` (`lib/app/openapi.ts` builds the document from them).
 *
 * @module
 */
import { z } from "zod";
import { CreatePaymentSchema, PayEmvSchema, PaymentUrlSchema, TerminalResultSchema } from "./schemas.ts";
import type { RouteDocs } from "@/lib/core/route_docs.ts";

/** `POST /api/payment/create`. */
export const createPaymentDocs: RouteDocs = {
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

/** `POST /api/payment/notify/{provider}`. */
export const paymentNotifyDocs: RouteDocs = {
  POST: {
    summary: "The provider's server-to-server payment notification",
    description: "Not trusted: the payment is verified with the provider before anything is recorded, and " +
      "recorded once however often the notification arrives (a donor portal card update's check likewise: its new " +
      "card applied once). A recorded result is answered from storage (a " +
      "failed payment is asked about again at most once a quarter hour); a decline the provider later reports approved stays " +
      "declined and is logged for a person.",
    tags: ["payments"],
    responses: { 200: { description: "Processed", schema: z.object({ outcome: z.string() }) } },
  },
};

/** `POST /api/payment/pay-emv`. */
export const payEmvDocs: RouteDocs = {
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

/** `POST /api/payment/test-emv/{terminalNumber}`. */
export const testEmvDocs: RouteDocs = {
  POST: {
    summary: "Start a test payment for a test terminal",
    description:
      "Only while TEST_TERMINAL_PAYMENT is on and for the three TEST_TERMINALS. Answers the URL of a " +
      "1 NIS test payment whose result returns to /{lang}/terminal-success/{shop} or terminal-error. The body is " +
      "optional: { language, shopNumber } (default en and the terminal number). Only a paired kiosk may " +
      "start one: the request needs the kiosk's device cookie for that shop, unless the body is signed with a " +
      "SIGNING_KEYS server key (an integration).",
    tags: ["payments"],
    responses: {
      200: { description: "Where to send the browser", schema: PaymentUrlSchema },
      403: { description: "Test terminal payments are switched off, or no paired kiosk device sent it" },
    },
  },
};
