/**
 * The confirmation that a monthly gift's card was replaced (`card-updated`, issue 15): the new
 * card's last four digits, the amount and the next charge date as they stood at the change (carried
 * in the message, so a later change does not rewrite it), and a word for a donor who did not make
 * the change. Its words are the locale object `portalCard.email`.
 *
 * @module
 */
import { emailDate, emailMoney } from "./format.ts";
import { donorFrame, type KindRenderer, manageAction, recipientDonor, rendered } from "./render.ts";

/** The card-updated confirmation. */
export const renderCardUpdated: KindRenderer<"card-updated"> = async (message, env) => {
  const donor = await recipientDonor(message, env);
  if (!donor) return null;
  const { t, lang } = env;
  const { last4 } = message.data;
  const amount = emailMoney(message.data.amount, message.data.currency, lang);
  const date = emailDate(message.data.nextPaymentDate, lang);
  return rendered(env, [donor.email], {
    ...donorFrame(env, donor),
    subject: t("portalCard.email.subject", { museum: env.museum }),
    heading: t("portalCard.email.heading"),
    paragraphs: [
      last4
        ? t("portalCard.email.body", { amount, last4, date })
        : t("portalCard.email.bodyNoDigits", { amount, date }),
      t("portalCard.email.notYou"),
    ],
    details: [
      [t("email.labels.amount"), amount],
      [t("email.labels.kind"), t("email.labels.monthly")],
      [t("email.labels.nextCharge"), date],
    ],
    actions: [await manageAction(env, donor.id)],
  });
};
