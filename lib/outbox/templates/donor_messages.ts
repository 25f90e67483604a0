/**
 * The donor's messages about one gift: the receipt (one-time, or one monthly charge, with its PDF
 * attached), the monthly gift's welcome, a declined monthly charge (what happens next: the retry's
 * date, or that the gift stopped), the cancellation's confirmation, and a fresh manage link. Each
 * reads what it reports from storage when it is sent and carries the donor's manage link.
 *
 * @module
 */
import type { Attachment } from "@/lib/storage/message_types.ts";
import type { Subscription, Transaction } from "@/lib/storage/types.ts";
import { emailDate, emailMoney, lastFour } from "./format.ts";
import {
  donateAction,
  donorFrame,
  type KindRenderer,
  manageAction,
  recipientDonor,
  rendered,
  type RenderEnv,
} from "./render.ts";

/** The payment row of a details list: the card's last four digits when known. */
function cardLine(env: RenderEnv, masked: string | null | undefined): [string, string] {
  const last4 = lastFour(masked);
  return [
    env.t("email.labels.payment"),
    last4 ? env.t("email.labels.card", { last4 }) : env.t("email.labels.cardUnknown"),
  ];
}

/** A transaction's amount, from the transaction or (for an old record) its card result. */
function amountOf(tx: Transaction): { minor: number; currency: 1 | 2 } | null {
  if (tx.amount !== null && tx.currency !== null) return { minor: tx.amount, currency: tx.currency };
  const minor = Number(tx.resultData?.DebitTotal);
  const currency = tx.resultData?.DebitCurrency;
  return Number.isSafeInteger(minor) && (currency === 1 || currency === 2) ? { minor, currency } : null;
}

/** The receipt of a successful gift: thanks, the figures, the PDF attached, the manage link. */
export const renderReceipt: KindRenderer<"receipt"> = async (message, env) => {
  const donor = await recipientDonor(message, env);
  const tx = await env.store.transactions.get(message.data.transactionId);
  if (!donor || !tx || tx.kind !== "success") return null;
  const amount = amountOf(tx);
  if (!amount) return null;
  const { t, lang } = env;
  const figures = {
    amount: emailMoney(amount.minor, amount.currency, lang),
    date: emailDate(tx.createdAt, lang),
  };
  const receipt = await env.receiptAttachment(tx, lang);
  // A gift at a membership level: the email says what its receipt says (value, deductible, share).
  const { membership, ...pdf } = receipt ?? {};
  const content = {
    ...donorFrame(env, donor),
    subject: t(tx.isMonthly ? "email.receipt.subjectMonthly" : "email.receipt.subject", {
      museum: env.museum,
    }),
    heading: t("email.receipt.heading"),
    paragraphs: [
      t(tx.isMonthly ? "email.receipt.bodyMonthly" : "email.receipt.body", figures),
      ...(membership ? [membership.statement] : []),
      ...(receipt ? [t("email.receipt.attached")] : []),
    ],
    details: [
      [t("email.labels.amount"), figures.amount],
      [t("email.labels.date"), figures.date],
      [t("email.labels.kind"), t(tx.isMonthly ? "email.labels.monthly" : "email.labels.oneTime")],
      cardLine(env, tx.resultData?.CreditCardNumber),
      [t("email.labels.reference"), tx.id],
      ...(membership?.rows ?? []),
    ] as [string, string][],
    actions: [await manageAction(env, donor.id)],
  };
  return rendered(env, [donor.email], content, receipt ? [pdf as Attachment] : []);
};

/** The subscription a message is about, when it is still the donor's. */
async function subscriptionOf(env: RenderEnv, id: string, donorId: string): Promise<Subscription | null> {
  const sub = await env.store.subscriptions.get(id);
  return sub && sub.donorId === donorId ? sub : null;
}

/** A new monthly gift: thanks, the amount and next charge date, the manage link. */
export const renderMonthlyWelcome: KindRenderer<"monthly-welcome"> = async (message, env) => {
  const donor = await recipientDonor(message, env);
  if (!donor) return null;
  const sub = await subscriptionOf(env, message.data.subscriptionId, donor.id);
  // Cancelled (or stopped) before the welcome went out: a welcome would announce a charge that never comes.
  if (!sub || sub.status !== "active") return null;
  const { t, lang } = env;
  const amount = emailMoney(sub.amount, sub.currency, lang);
  const next = emailDate(sub.nextPaymentDate, lang);
  return rendered(env, [donor.email], {
    ...donorFrame(env, donor),
    subject: t("email.welcome.subject", { museum: env.museum }),
    heading: t("email.welcome.heading"),
    paragraphs: [t("email.welcome.body", { amount, date: next }), t("email.welcome.receipts")],
    details: [
      [t("email.labels.amount"), amount],
      [t("email.labels.kind"), t("email.labels.monthly")],
      [t("email.labels.nextCharge"), next],
      cardLine(env, sub.cardMasked),
    ],
    actions: [await manageAction(env, donor.id)],
  });
};

/** A declined monthly charge: what was tried, then the retry's date or that the gift stopped. */
export const renderChargeFailed: KindRenderer<"charge-failed"> = async (message, env) => {
  const donor = await recipientDonor(message, env);
  if (!donor) return null;
  const sub = await subscriptionOf(env, message.data.subscriptionId, donor.id);
  if (!sub) return null;
  const tx = await env.store.transactions.get(message.data.transactionId);
  const { t, lang } = env;
  const amount = emailMoney(sub.amount, sub.currency, lang);
  const tried = emailDate(tx?.createdAt ?? message.createdAt, lang);
  const { retryAt } = message.data;
  return rendered(env, [donor.email], {
    ...donorFrame(env, donor),
    subject: t("email.chargeFailed.subject"),
    heading: t("email.chargeFailed.heading"),
    paragraphs: [
      t("email.chargeFailed.body", { amount, date: tried }),
      retryAt
        ? t("email.chargeFailed.retry", { date: emailDate(retryAt, lang) })
        : t("email.chargeFailed.stopped"),
    ],
    details: [
      [t("email.labels.amount"), amount],
      [t("email.labels.date"), tried],
      cardLine(env, sub.cardMasked),
      ...(retryAt ? [[t("email.labels.nextCharge"), emailDate(retryAt, lang)] as [string, string]] : []),
    ],
    actions: retryAt
      ? [await manageAction(env, donor.id)]
      : [donateAction(env), await manageAction(env, donor.id)],
  });
};

/** The cancellation's confirmation. */
export const renderMonthlyCancelled: KindRenderer<"monthly-cancelled"> = async (message, env) => {
  const donor = await recipientDonor(message, env);
  if (!donor) return null;
  const { t, lang } = env;
  return rendered(env, [donor.email], {
    ...donorFrame(env, donor),
    subject: t("email.cancelled.subject", { museum: env.museum }),
    heading: t("email.cancelled.heading"),
    paragraphs: [
      t("email.cancelled.body", { date: emailDate(message.data.at, lang) }),
      t("email.cancelled.thanks"),
    ],
    actions: [donateAction(env), await manageAction(env, donor.id)],
  });
};

/** A fresh manage link, asked for from an expired one's page. */
export const renderManageLink: KindRenderer<"manage-link"> = async (message, env) => {
  const donor = await recipientDonor(message, env);
  if (!donor) return null;
  const { t } = env;
  return rendered(env, [donor.email], {
    ...donorFrame(env, donor),
    subject: t("email.manageLink.subject", { museum: env.museum }),
    heading: t("email.manageLink.heading"),
    paragraphs: [t("email.manageLink.body")],
    actions: [await manageAction(env, donor.id)],
    after: [t("email.manageLink.ignore")],
  });
};
