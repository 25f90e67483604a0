/**
 * The sandbox's refunds: a credit to the card of a paid sandbox payment (hosted page, token charge
 * or terminal sale), kept in the sandbox's own books like the real gateway's would be. Beside
 * `sandbox.ts` so that file stays within its size.
 *
 * The card credited is the one of the token the request names, like Pelecard's credit through a
 * token (issue 23: the app names the token the payment was charged with); a request without one
 * credits the payment's own card, as a gateway refunding by its transaction does. The record of the
 * credit names the card (`creditedCard`, masked) and the token, so a test sees where money went.
 *
 * The sandbox refuses what a real gateway refuses: an unknown or unpaid payment, another currency,
 * more than what is left of the payment (the app checks that first; this is the provider's own
 * check), and an unknown token (`506`). It declines (code `033`) a refund to the test card that
 * declines refunds ({@link REFUND_DECLINED_CARD}), so a refused refund can be tried end to end; and it
 * credits a refund to {@link REFUND_UNCONFIRMED_CARD} but loses its answer (a timeout), so an
 * unconfirmed refund and its reconciliation can be tried too.
 *
 * @module
 */
import { newId } from "@/lib/core/ids.ts";
import type { SandboxRecord, Store } from "@/lib/storage/types.ts";
import type { ProviderResult, RefundRequest } from "@/lib/providers/provider.ts";
import { ProviderError } from "@/lib/providers/provider.ts";
import { maskCard, sandboxResultData } from "./cards.ts";

/** A test card (Luhn-valid) whose payments the sandbox pays but whose refunds it declines. */
export const REFUND_DECLINED_CARD = "4000056655665556";

/** A test card (Luhn-valid) whose refunds the sandbox credits but whose answers it loses. */
export const REFUND_UNCONFIRMED_CARD = "4000002760003184";

/** Whether a masked card number (first six, last four) is `card`'s. */
const isCard = (masked: string, card: string) =>
  masked.startsWith(card.slice(0, 6)) && masked.endsWith(card.slice(-4));

const PAID_KINDS: ReadonlySet<SandboxRecord["kind"]> = new Set(["hosted", "charge", "terminal"]);

/**
 * Refunds `request` against the sandbox's record of the payment; answers the credit's result.
 *
 * @example
 * ```ts
 * const result = await sandboxRefund(store, { providerRef, token: null, amount: 500, currency: 1, reference: "r1" });
 * result.statusCode; // "000"
 * ```
 */
export async function sandboxRefund(store: Store, request: RefundRequest): Promise<ProviderResult> {
  // A sandbox reference is 16..64 characters (`isSandboxRef`); a longer one never reaches storage.
  if (request.providerRef.length < 16 || request.providerRef.length > 64) {
    throw new ProviderError("Sandbox: not a sandbox payment", "refused");
  }
  const original = await store.sandbox.get(request.providerRef);
  if (!original || !PAID_KINDS.has(original.kind) || original.status !== "paid") {
    throw new ProviderError("Sandbox: no paid payment with this reference", "refused");
  }
  const data = original.data as { refunded?: number; resultData?: { CreditCardNumber?: string } };
  const refunded = typeof data.refunded === "number" ? data.refunded : 0;
  const token = request.token === null || request.token.length > 64
    ? null
    : await store.sandbox.get(request.token);
  const tokenCard = token?.kind === "token" ? token.data as { card?: string; cardMasked?: string } : null;
  // Masked (first six, last four): the token's card, or the payment's own.
  const card = request.token === null
    ? String(data.resultData?.CreditCardNumber ?? "0000000000000000")
    : String(tokenCard?.cardMasked ?? maskCard(tokenCard?.card ?? "0000000000000000"));
  let code = "000";
  if (request.token !== null && tokenCard === null) code = "506";
  else if (original.currency !== request.currency) code = "065";
  else if (request.amount > original.amount - refunded) code = "205";
  else if (isCard(card, REFUND_DECLINED_CARD)) code = "033";
  const now = new Date().toISOString();
  const record: SandboxRecord = {
    ref: newId(),
    kind: "charge",
    status: code === "000" ? "refunded" : "declined",
    reference: request.reference,
    terminalId: null,
    amount: request.amount,
    currency: request.currency,
    createdAt: now,
    updatedAt: now,
    data: {
      refundOf: original.ref,
      token: request.token,
      creditedCard: code === "000" ? card : null,
      statusCode: code,
      errorMessage: code === "000" ? null : `Refund refused (${code})`,
      resultData: sandboxResultData(card, -request.amount, request.currency, code),
    },
  };
  if (code === "000") {
    // The original keeps its running refunded total, as a gateway's books would.
    const moved = await store.sandbox.transition(original.ref, "paid", "paid", {
      refunded: refunded + request.amount,
    }, now);
    if (!moved) throw new ProviderError("Sandbox: the payment changed meanwhile", "refused");
  }
  await store.sandbox.create(record);
  if (code === "000" && isCard(card, REFUND_UNCONFIRMED_CARD)) {
    throw new ProviderError("Sandbox: the refund's answer was lost (test card)", "timeout");
  }
  return {
    providerRef: record.ref,
    statusCode: code,
    errorMessage: code === "000" ? null : `Refund refused (${code})`,
    amount: request.amount,
    currency: request.currency,
    reference: request.reference,
    token: null,
    resultData: null,
  };
}
