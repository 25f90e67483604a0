/**
 * Gift memberships at both ends of a payment (issue 28, item 3). When it starts
 * ({@link prepareGift}): the gift's fields checked (`lib/shared/gift_membership.ts`; a one-time gift
 * at a level only) and the recipient's donor record made, so their name and address live where
 * erasure finds them. When it succeeds ({@link giftEffects}): the membership is the recipient's
 * (by their normalized address: a join, or a renewal by the usual rules), the term starts at
 * payment and names the giver and the reminders choice; the giver is told the gift is scheduled
 * (the `membership` message to the giver, decided when sent); the recipient's welcome with the
 * card is queued not before the delivery day (`gift-membership-delivery`), all in the
 * transaction's atomic step. The transaction, the receipt and the rate limits stay the giver's.
 *
 * @module
 */
import { translator } from "@/lib/core/i18n.ts";
import { createDonor } from "@/lib/donors/mod.ts";
import { giftDeliveryMessage, levelGiftChange, membershipMessage } from "@/lib/memberships/mod.ts";
import { isLang } from "@/lib/shared/languages.ts";
import { isEmail } from "@/lib/shared/donation.ts";
import { deliveryDay, deliveryStart, giftErrors, type GiftFields } from "@/lib/shared/gift_membership.ts";
import type {
  GiftReminders,
  MembershipChange,
  MessageInput,
  Payment,
  PaymentGift,
} from "@/lib/storage/types.ts";
import { InvalidDonationError } from "./errors.ts";
import type { CompletionContext } from "./service.ts";

/**
 * Checks a gift membership's fields for a payment of `input` at `now` and makes the recipient's
 * donor record; throws {@link InvalidDonationError} naming each bad field (English, as the API speaks).
 *
 * @example
 * ```ts
 * const gift = await prepareGift(ctx, fields, { levelId: 2, isMonthly: false }, new Date());
 * ```
 */
export async function prepareGift(
  ctx: Pick<CompletionContext, "store">,
  fields: GiftFields,
  input: { levelId?: number | null; isMonthly: boolean },
  now: Date,
): Promise<PaymentGift> {
  if (input.levelId == null) {
    throw new InvalidDonationError("A gift membership must be at a membership level", [
      { path: "levelId", message: "a gift membership needs a level" },
    ]);
  }
  if (input.isMonthly) {
    throw new InvalidDonationError("A gift membership is a one-time gift", [
      { path: "isMonthly", message: "a gift membership is one-time" },
    ]);
  }
  const problems = Object.entries({
    ...giftErrors(fields, now, isEmail),
    ...(isLang(fields.giftLanguage) ? {} : { giftLanguage: "giftMembership.errors.language" }),
  });
  if (problems.length > 0) {
    const en = translator("en");
    const errors = problems.map(([path, key]) => ({ path, message: en(key) }));
    throw new InvalidDonationError(
      `The gift membership's ${problems.map(([p]) => p).join(", ")} ${
        problems.length > 1 ? "are" : "is"
      } not valid`,
      errors,
    );
  }
  const recipient = await createDonor(ctx.store, {
    firstName: fields.giftName.trim(),
    lastName: "",
    email: fields.giftEmail.trim(),
    country: "",
  }, now);
  return {
    recipientDonorId: recipient.id,
    deliverAt: deliveryStart(deliveryDay(fields, now))!,
    message: fields.giftMessage.trim(),
    reminders: fields.giftReminders as GiftReminders,
    language: fields.giftLanguage,
  };
}

/**
 * What a gift membership's successful transaction writes with it: the recipient's membership
 * change, the giver's "scheduled" message and the recipient's delivery. Undefined when the recipient's
 * record is gone (erased meanwhile): the payment stays the giver's donation.
 */
export async function giftEffects(
  ctx: CompletionContext,
  payment: Payment & { gift: PaymentGift; levelId: number },
  transaction: { id: string; createdAt: string; amount: number; currency: 1 | 2 },
): Promise<{ membership: MembershipChange; messages: MessageInput[] } | undefined> {
  const gift = payment.gift;
  const recipient = await ctx.store.donors.get(gift.recipientDonorId);
  if (!recipient?.email || recipient.erasedAt !== undefined) {
    ctx.log.warn("gift membership's recipient is gone; recorded as a donation", { paymentId: payment.id });
    return undefined;
  }
  const membership = await levelGiftChange(
    { store: ctx.store, graceDays: ctx.membershipGraceDays },
    recipient.email,
    {
      donorId: recipient.id,
      levelId: payment.levelId,
      paidAt: transaction.createdAt,
      transactionId: transaction.id,
      amount: transaction.amount,
      currency: transaction.currency,
      subscriptionId: null,
      gift: {
        giverDonorId: payment.donorId,
        reminders: gift.reminders,
        deliverAt: gift.deliverAt,
        message: gift.message,
      },
    },
  );
  return {
    membership,
    messages: [
      membershipMessage({ donorId: payment.donorId }, payment.language, membership.email, transaction.id),
      giftDeliveryMessage(recipient.id, gift, membership.email, transaction.id),
    ],
  };
}
