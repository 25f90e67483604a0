/**
 * What a charge of a stored card token has in common wherever it is made (monthly billing,
 * `billing.ts`; a membership's automatic renewal, `auto_renewal.ts`): sending it, with an answer
 * that never came kept apart from a decline, and the transaction its result is recorded as.
 *
 * @module
 */
import type { Logger } from "@/lib/core/log.ts";
import { type PaymentProvider, ProviderError, type ProviderResult } from "@/lib/providers/mod.ts";
import type { Charge, Donor, Transaction } from "@/lib/storage/types.ts";

/**
 * Sends the token charge of `charge` (claimed before) for `amount` in `currency`; null when the
 * provider did not answer: unknown whether the card was charged, so the claim stays "started" and
 * recovery finds out. Other errors are thrown.
 *
 * @example
 * ```ts
 * const result = await sendTokenCharge(provider, log, charge, 10000, 1, { subscriptionId });
 * ```
 */
export async function sendTokenCharge(
  provider: PaymentProvider,
  log: Logger,
  charge: Charge & { token: string },
  amount: number,
  currency: 1 | 2,
  about: Record<string, unknown>,
): Promise<ProviderResult | null> {
  try {
    return await provider.chargeToken({ token: charge.token, amount, currency, reference: charge.reference });
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    log.error("token charge: provider failed", { ...about, reference: charge.reference, error: e.message });
    return null;
  }
}

/**
 * The transaction recording a token charge's `result`: a success only with code `000` and the
 * amount expected (else `MISMATCH`), the charge's reference as its provider id when the provider
 * gives none (unique per attempt), and the token it was sent with (a refund credits that card only).
 *
 * @example
 * ```ts
 * const { tx, success } = tokenChargeTransaction({ id, at, donor, donorId, isMonthly: true, amount, currency, provider: "sandbox", charge, result });
 * ```
 */
export function tokenChargeTransaction(input: {
  id: string;
  at: Date;
  donorId: string;
  donor: Donor | null;
  isMonthly: boolean;
  amount: number;
  currency: 1 | 2;
  provider: string;
  charge: Pick<Charge, "reference" | "token">;
  result: ProviderResult;
}): { tx: Transaction; success: boolean } {
  const { result, donor } = input;
  const success = result.statusCode === "000" && (result.amount === null || result.amount === input.amount);
  const tx: Transaction = {
    id: input.id,
    kind: success ? "success" : "error",
    statusCode: success ? "000" : result.statusCode === "000" ? "MISMATCH" : result.statusCode,
    isMonthly: input.isMonthly,
    createdAt: input.at.toISOString(),
    donorId: input.donorId,
    user: { firstName: donor?.firstName ?? "", lastName: donor?.lastName ?? "", email: donor?.email ?? "" },
    amount: result.amount ?? input.amount,
    currency: result.currency ?? input.currency,
    resultData: success ? result.resultData : null,
    errorMessage: success ? null : result.errorMessage ?? `Declined (${result.statusCode})`,
    provider: input.provider,
    providerTransactionId: result.providerRef || input.charge.reference,
    cardToken: input.charge.token,
  };
  return { tx, success };
}
