/**
 * Pelecard refunds (§2.5 of `shared/payments/PELECARD.md`): a credit (zikui) is
 * `services/DebitRegularType` on the card's token with a negative `total`, as Pelecard's own plugin
 * refunds, on the token terminal when one is configured. A payment without a token (a one-time gift
 * through the hosted page, which asks for none) cannot be credited this way: the call is refused
 * before anything is sent, with a message saying to refund it in Pelecard's back office.
 *
 * @module
 */
import { PELECARD_MISMATCH, type PelecardKit, text, toResult } from "./protocol.ts";
import { ProviderError, type ProviderResult, type RefundRequest } from "@/lib/providers/provider.ts";

/**
 * The provider's `refund` on `kit`.
 *
 * @example
 * ```ts
 * const refund = createPelecardRefund(kit);
 * await refund({ providerRef, token: "1234567890", amount: 500, currency: 1, reference: "refund_1" });
 * ```
 */
export function createPelecardRefund(kit: PelecardKit): (request: RefundRequest) => Promise<ProviderResult> {
  return async (request) => {
    if (!Number.isSafeInteger(request.amount) || request.amount <= 0) {
      throw new TypeError("amount must be a positive integer in minor units");
    }
    if (!request.token) {
      throw new ProviderError(
        "Pelecard credits a card only through its token, and this payment has none: refund it in Pelecard's back office",
        "refused",
      );
    }
    const raw = await kit.post("DebitRegularType(refund)", "services/DebitRegularType", {
      ...kit.serviceLogin("token"),
      shopNumber: "001",
      token: request.token,
      total: -request.amount,
      currency: request.currency,
      paramX: request.reference,
    });
    const answer = kit.readServiceAnswer("DebitRegularType(refund)", raw);
    const rd = answer.resultData;
    let verdict = kit.judge("DebitRegularType(refund)", answer, {
      amount: -request.amount,
      currency: request.currency,
      reference: request.reference,
    });
    // Whether a credit's DebitTotal comes back signed is not documented: its size is what counts.
    if (verdict.statusCode === PELECARD_MISMATCH && rd && text(rd.DebitTotal) === String(request.amount)) {
      verdict = kit.judge("DebitRegularType(refund)", answer, {
        amount: request.amount,
        currency: request.currency,
        reference: request.reference,
      });
    }
    const ref = rd ? text(rd.PelecardTransactionId) || text(rd.TransactionId) : "";
    if (verdict.statusCode === "000" && !ref) {
      throw new ProviderError("Pelecard refund: success without a transaction id", "invalid-answer");
    }
    return toResult(ref, verdict, rd);
  };
}
