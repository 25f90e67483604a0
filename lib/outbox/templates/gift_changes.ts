/**
 * The confirmation of a donor's change to a monthly gift (`monthly-changed`, issue 15): a new
 * amount, a pause, a skipped charge or a resume, with the gift as it stands after the change (the
 * figures carried in the message, so a later change does not rewrite an earlier confirmation). Its
 * words are the locale object `giftChanges`.
 *
 * @module
 */
import { emailDate, emailMoney } from "./format.ts";
import { donorFrame, type KindRenderer, manageAction, recipientDonor, rendered } from "./render.ts";

/** The confirmation of a change: what changed, then the amount and the next charge date. */
export const renderMonthlyChanged: KindRenderer<"monthly-changed"> = async (message, env) => {
  const donor = await recipientDonor(message, env);
  if (!donor) return null;
  const { t, lang } = env;
  const { change } = message.data;
  const amount = emailMoney(message.data.amount, message.data.currency, lang);
  const date = emailDate(message.data.nextPaymentDate, lang);
  return rendered(env, [donor.email], {
    ...donorFrame(env, donor),
    subject: t("giftChanges.subject", { museum: env.museum }),
    heading: t("giftChanges.heading"),
    paragraphs: [t(`giftChanges.${change}`, { amount, date })],
    details: [
      [t("email.labels.amount"), amount],
      [t("email.labels.kind"), t("email.labels.monthly")],
      [t("email.labels.nextCharge"), date],
    ],
    actions: [await manageAction(env, donor.id)],
  });
};
