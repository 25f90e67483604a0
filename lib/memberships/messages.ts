/**
 * The membership emails' messages (issue 27): what a gift at a level enqueues in the same atomic
 * step as its transaction, and what staff's resend enqueues. Only intents: the email is decided
 * and written when sent (`lib/outbox/templates/membership.ts`), from the membership stored then.
 *
 * @module
 */
import type { MessageInput, Recipient } from "@/lib/storage/message_types.ts";
import type { PaymentGift } from "@/lib/storage/payment_types.ts";

/**
 * The `membership` message of the transaction `transactionId` of a gift at a level, to its donor,
 * once per transaction (its key).
 *
 * @example
 * ```ts
 * await store.transactions.record(tx, { messages: [membershipMessage(to, "he", email, tx.id)], membership });
 * ```
 */
export function membershipMessage(
  to: Recipient,
  language: string,
  email: string,
  transactionId: string,
): MessageInput<"membership"> {
  return {
    key: `membership:${transactionId}`,
    kind: "membership",
    to,
    language,
    data: { email, transactionId },
  };
}

/**
 * Staff's resend of a member's cards: one per request (`requestId`), to the member's donor record.
 *
 * @example
 * ```ts
 * await store.outbox.enqueue([memberCardMessage(membership, "en", crypto.randomUUID())], at, { audit });
 * ```
 */
export function memberCardMessage(
  membership: { email: string; donorId: string },
  language: string,
  requestId: string,
): MessageInput<"member-card"> {
  return {
    key: `member-card:${membership.email}:${requestId}`,
    kind: "member-card",
    to: { donorId: membership.donorId },
    language,
    data: { email: membership.email },
  };
}

/**
 * A gift membership's delivery (issue 28): the welcome with the card, to the recipient's record, in
 * the language the giver chose, not before the delivery day; once per transaction (its key).
 *
 * @example
 * ```ts
 * giftDeliveryMessage(recipient.id, payment.gift, "noa@example.org", tx.id).notBefore; // gift.deliverAt
 * ```
 */
export function giftDeliveryMessage(
  recipientDonorId: string,
  gift: Pick<PaymentGift, "deliverAt" | "language">,
  email: string,
  transactionId: string,
): MessageInput<"gift-membership-delivery"> {
  return {
    key: `gift-membership-delivery:${transactionId}`,
    kind: "gift-membership-delivery",
    to: { donorId: recipientDonorId },
    language: gift.language,
    data: { email, transactionId },
    notBefore: gift.deliverAt,
  };
}
