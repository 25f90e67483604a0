/**
 * The Pelecard provider, put together: the hosted payment page and its verification
 * (`pelecard_hosted.ts`), token charges for monthly giving (`services/DebitRegularType`, here), refunds
 * (`pelecard_refund.ts`) and
 * PinPad sales (`pelecard_terminal.ts`), all on one kit of shared plumbing (`pelecard_protocol.ts`:
 * the transport, the envelope, the success test, redaction). The protocol is
 * `shared/payments/PELECARD.md`; section numbers below (§2.5, …) point into it.
 *
 * @module
 */
import { createPelecardHostedPage } from "./hosted.ts";
import { createPelecardKit, type PelecardConnection, text, toResult } from "./protocol.ts";
import { createPelecardRefund } from "./refund.ts";
import { createPelecardTerminalSale } from "./terminal.ts";
import {
  type PaymentProvider,
  ProviderError,
  type ProviderResult,
  type TerminalResult,
  type TerminalSaleRequest,
} from "@/lib/providers/provider.ts";

/**
 * How to reach Pelecard, and how to run terminal sales.
 *
 * @example
 * ```ts
 * const options: PelecardOptions = {
 *   baseUrl: "https://gateway21.pelecard.biz",
 *   terminal: "1234567",
 *   user: "museum",
 *   password: "…",
 *   tokenTerminal: { terminal: "7654321", user: "museum-token", password: "…" },
 * };
 * ```
 */
export interface PelecardOptions extends PelecardConnection {
  /** How long past a terminal sale's deadline we still wait for Pelecard's own answer; 10000 by default. */
  terminalMarginMs?: number;
  /**
   * Replaces the assumed PinPad contract of `pelecard_terminal.ts` (e.g. once Pelecard documents
   * the real one) while the rest of the provider stays.
   */
  terminalSale?: (request: TerminalSaleRequest) => Promise<TerminalResult>;
}

/**
 * The Pelecard provider. Refuses (TypeError) a `baseUrl` that would send the password over plain
 * HTTP to anything but a local simulator.
 *
 * @example
 * ```ts
 * const pelecard = createPelecardProvider({
 *   baseUrl: "https://gateway21.pelecard.biz",
 *   terminal: "1234567",
 *   user: "museum",
 *   password: Deno.env.get("PELECARD_PASSWORD")!,
 *   log: (msg, fields) => log.info(msg, fields),
 * });
 * const session = await pelecard.startHostedPayment({
 *   paymentId: "p1", userKey: "k1", amount: 10000, currency: 1, language: "he", tokenize: false,
 *   returnUrl: "https://donate.museum.org/he/success", notifyUrl: "https://donate.museum.org/api/payment/notify/pelecard",
 * });
 * ```
 */
export function createPelecardProvider(options: PelecardOptions): PaymentProvider {
  const kit = createPelecardKit(options);
  const terminalSale = options.terminalSale ??
    createPelecardTerminalSale({ kit, marginMs: options.terminalMarginMs ?? 10_000 });

  return {
    id: "pelecard",
    displayName: "Pelecard",
    frameOrigins: [kit.origin],
    refundsWithoutToken: false,
    ...createPelecardHostedPage(kit),

    async chargeToken(request): Promise<ProviderResult> {
      // A negative total is a refund at Pelecard (§2.5): never let a monthly charge become one.
      if (!Number.isSafeInteger(request.amount) || request.amount <= 0) {
        throw new TypeError("amount must be a positive integer in minor units");
      }
      const raw = await kit.post("DebitRegularType", "services/DebitRegularType", {
        ...kit.serviceLogin("token"),
        shopNumber: "001",
        token: request.token,
        total: request.amount,
        currency: request.currency,
        paramX: request.reference,
      });
      const answer = kit.readServiceAnswer("DebitRegularType", raw);
      const rd = answer.resultData;
      const verdict = kit.judge("DebitRegularType", answer, {
        amount: request.amount,
        currency: request.currency,
        reference: request.reference,
      });
      const ref = rd ? text(rd.PelecardTransactionId) || text(rd.TransactionId) : "";
      if (verdict.statusCode === "000" && !ref) {
        throw new ProviderError(
          "Pelecard DebitRegularType: success without a transaction id",
          "invalid-answer",
        );
      }
      return toResult(ref, verdict, rd);
    },

    refund: createPelecardRefund(kit),

    terminalSale,
  };
}
