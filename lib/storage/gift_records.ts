/**
 * A gift membership's part of a payment as both backends store it (issue 28): checked and copied
 * to exactly its fields (`PaymentGift`, `payment_types.ts`).
 *
 * @module
 */
import { GIFT_REMINDER_CHOICES, MAX_GIFT_MESSAGE } from "@/lib/shared/gift_membership.ts";
import { isLang } from "@/lib/shared/languages.ts";
import type { PaymentGift } from "./payment_types.ts";

/** A gift membership's part of a payment as stored (issue 28). */
export function canonicalPaymentGift(g: PaymentGift): PaymentGift {
  if (typeof g.recipientDonorId !== "string" || !/^[\w-]{1,100}$/.test(g.recipientDonorId)) {
    throw new RangeError("gift.recipientDonorId is not a donor id");
  }
  if (typeof g.message !== "string" || g.message.length > MAX_GIFT_MESSAGE) {
    throw new RangeError(`gift.message must be text of at most ${MAX_GIFT_MESSAGE} characters`);
  }
  if (!GIFT_REMINDER_CHOICES.includes(g.reminders)) {
    throw new RangeError(`unknown gift.reminders ${JSON.stringify(g.reminders)}`);
  }
  if (!isLang(g.language)) throw new RangeError(`unknown gift.language ${JSON.stringify(g.language)}`);
  // As records.ts's isoInstant (not imported: records.ts imports this module).
  const deliverAt = Date.parse(g.deliverAt);
  if (Number.isNaN(deliverAt)) throw new RangeError(`gift.deliverAt is not an ISO 8601 instant`);
  return {
    recipientDonorId: g.recipientDonorId,
    deliverAt: new Date(deliverAt).toISOString(),
    message: g.message,
    reminders: g.reminders,
    language: g.language,
  };
}
