/**
 * Which card a refund credits (issue 23): money goes back only to the card that paid.
 *
 * Every path that records a charge keeps the token it was charged with on the transaction
 * (`cardToken`: a monthly gift's first payment on the hosted page, its monthly charges, a failing
 * gift's charge right after its card was replaced). A refund credits through that token and no
 * other: a donor who replaced the card (or someone who started a gift with a stolen card, swapped
 * in their own and asked for a refund) gets earlier charges credited to the card that paid them.
 *
 * - A gift charged with a token: through it.
 * - A one-time gift (the hosted page asks no token; a terminal sale has none): by the payment's own
 *   reference where the provider credits so (the sandbox), which always reaches the paying card;
 *   Pelecard credits only through a token, so there it is refused before anything is recorded,
 *   with a message sending staff to Pelecard's back office.
 * - A monthly charge recorded before tokens were kept: the token in force is certain only when its
 *   gift's card was never replaced (the donor has one gift with this provider, or several on one
 *   token, and no card update of any of them was applied or is still open: the card-update
 *   history); otherwise refused, with the same message. Guessing would send the money to whichever
 *   card is on the gift now.
 *
 * The token never leaves the server: the back office is told the last four digits of the card
 * (from the masked number the provider answered for the charge).
 *
 * @module
 */
import { lastFour } from "@/lib/shared/format.ts";
import type { Store, Transaction } from "@/lib/storage/types.ts";
import type { PaymentProvider } from "@/lib/providers/mod.ts";

/** Why a gift cannot be refunded here: the back office's dialog says it in the viewer's language. */
export type RefundCardRefusal = "unknown" | "no-token";

/** The card a refund credits, or why it cannot be known. */
export type RefundCard =
  | { available: true; token: string | null; last4: string | null }
  | { available: false; reason: RefundCardRefusal; message: string };

/** More card-update attempts than this on one gift: its history is not read to the end, so not trusted. */
const HISTORY_LIMIT = 1_000;

/**
 * The card a refund of `tx` credits through `provider`, or why it cannot be known (see the
 * module's notes).
 *
 * @example
 * ```ts
 * const card = await refundCardOf(store, provider, tx);
 * if (!card.available) throw new NotRefundableError(card.message);
 * ```
 */
export async function refundCardOf(
  store: Store,
  provider: Pick<PaymentProvider, "displayName" | "refundsWithoutToken">,
  tx: Transaction,
): Promise<RefundCard> {
  const last4 = lastFour(tx.resultData?.CreditCardNumber);
  if (tx.cardToken) return { available: true, token: tx.cardToken, last4 };
  if (!tx.isMonthly) {
    if (provider.refundsWithoutToken) return { available: true, token: null, last4 };
    return {
      available: false,
      reason: "no-token",
      message: `${provider.displayName} credits a card only through its token, and this gift was paid ` +
        `without one: refund it in ${provider.displayName}'s back office`,
    };
  }
  const token = await tokenInForce(store, tx);
  if (token !== null) return { available: true, token, last4 };
  return {
    available: false,
    reason: "unknown",
    message: "The card this gift was charged with is not on record (its monthly gift's card was replaced " +
      "since): refund it in the payment provider's back office, which credits the card that paid",
  };
}

/**
 * The token a monthly charge recorded without one was made with, when certain: its donor's gifts
 * with its provider all on one token, none ever given another card. Else null.
 */
async function tokenInForce(store: Store, tx: Transaction): Promise<string | null> {
  const gifts = (await store.subscriptions.listByDonor(tx.donorId)).filter((s) => s.provider === tx.provider);
  const tokens = new Set(gifts.map((s) => s.token));
  if (tokens.size !== 1) return null;
  for (const gift of gifts) {
    const history = await store.cardUpdates.listBySubscription(gift.id, HISTORY_LIMIT);
    // Applied, or open: an open attempt may have put its token on the gift already (the gift's
    // write comes before the attempt's), and reconciliation closes it within hours.
    if (
      history.length >= HISTORY_LIMIT || history.some((u) => u.status === "applied" || u.status === "open")
    ) {
      return null;
    }
  }
  return [...tokens][0];
}
