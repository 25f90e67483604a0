/**
 * The donor's email about a refund (`refund`, issue 16): how much was given back of which gift, to
 * which card, the gift's receipt number, and the credit receipt attached (a PDF referencing that
 * receipt, `lib/receipts/credit.ts`) when receipts are configured. Read from storage when sent: a
 * refund that is not (or no longer) succeeded sends nothing. Its words are the locale object
 * `refunds.email`.
 *
 * @module
 */
import { emailDate, emailMoney, lastFour } from "./format.ts";
import { donorFrame, type KindRenderer, manageAction, recipientDonor, rendered } from "./render.ts";

/** The refund email, with its credit receipt attached when one can be issued. */
export const renderRefund: KindRenderer<"refund"> = async (message, env) => {
  const donor = await recipientDonor(message, env);
  const tx = await env.store.transactions.get(message.data.transactionId);
  const refund = await env.store.refunds.get(message.data.transactionId, message.data.refundId);
  if (!donor || !tx || tx.kind !== "success" || !refund || refund.state !== "succeeded") return null;
  const { t, lang } = env;
  const amount = emailMoney(refund.amount, refund.currency, lang);
  const gift = emailMoney(tx.amount ?? 0, refund.currency, lang);
  const date = emailDate(tx.createdAt, lang);
  const last4 = lastFour(tx.resultData?.CreditCardNumber);
  const credit = env.creditReceiptAttachment ? await env.creditReceiptAttachment(tx, refund, lang) : null;
  return rendered(env, [donor.email], {
    ...donorFrame(env, donor),
    subject: t("refunds.email.subject", { museum: env.museum }),
    heading: t("refunds.email.heading"),
    paragraphs: [
      t("refunds.email.body", { amount, gift, date }),
      last4 ? t("refunds.email.card", { last4 }) : t("refunds.email.cardUnknown"),
      ...(credit ? [t("refunds.email.attached", { number: credit.number })] : []),
    ],
    details: [
      [t("refunds.email.refunded"), amount],
      [t("refunds.email.gift"), gift],
      [t("email.labels.date"), date],
      ...(credit?.of ? [[t("refunds.email.originalReceipt"), credit.of] as [string, string]] : []),
      [t("email.labels.reference"), tx.id],
    ],
    actions: [await manageAction(env, donor.id)],
  }, credit ? [credit.attachment] : []);
};
