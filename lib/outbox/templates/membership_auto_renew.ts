/**
 * The automatic renewal emails (issue 27, item 5): the notice 7 days before the charge
 * (`membership-autorenew-notice`, enqueued by `lib/memberships/renewals.ts`) and the declined
 * charge's email (`membership-autorenew-failed`, `lib/monthly_gifts/auto_renewal.ts`). Rendered when
 * sent, from the membership as stored then: a notice is skipped once auto-renewal is off or the end
 * moved. The notice states the amount (the level's price now, in the consenting payment's currency),
 * the date, the card's last four digits, and carries the one-click turn-off link
 * (`lib/memberships/auto_renew.ts`: scoped to that membership, never a session). The failure email
 * says when it is tried again, or that auto-renewal stopped, with the renewal link. Words: the
 * locale object `membershipAutoRenew`.
 *
 * @module
 */
import { autoRenewOffUrl, createAutoRenewOffToken } from "@/lib/memberships/mod.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import { levelById } from "@/lib/shared/museum.ts";
import type { Membership } from "@/lib/storage/types.ts";
import { emailDate, emailMoney } from "./format.ts";
import { details, renewAction, still } from "./membership_renewals.ts";
import { donorFrame, type KindRenderer, rendered, type RenderEnv } from "./render.ts";

/** The charge the notice announces: the level's price now, in the consenting payment's currency. */
async function amountOf(env: RenderEnv, membership: Membership, levelId: number): Promise<string> {
  const level = levelById((await readMuseumSettings(env.store)).levels, levelId);
  const currency = membership.autoRenew!.currency;
  return level ? emailMoney(currency === 1 ? level.price.nis : level.price.dollars, currency, env.lang) : "";
}

/** The card line: "Card ending in 9015", or "Card" when the provider gave no digits. */
const cardOf = (env: RenderEnv, membership: Membership): string =>
  membership.autoRenew?.last4
    ? env.t("email.labels.card", { last4: membership.autoRenew.last4 })
    : env.t("email.labels.cardUnknown");

/** The notice, 7 days before the automatic renewal charge. */
export const renderAutoRenewNotice: KindRenderer<"membership-autorenew-notice"> = async (message, env) => {
  const found = await still(message, env);
  if (!found || !found.membership.autoRenew) return null;
  const { donor, membership, levelId, levelName } = found;
  const { t, lang } = env;
  const amount = await amountOf(env, membership, levelId);
  const vars = { level: levelName, museum: env.museum, date: emailDate(membership.end, lang), amount };
  const actions = [];
  if (env.autoRenewOffKey) {
    const token = await createAutoRenewOffToken(env.autoRenewOffKey, membership, env.now());
    actions.push({
      label: t("membershipAutoRenew.notice.offButton"),
      url: autoRenewOffUrl(env.publicUrl, lang, token),
      note: t("membershipAutoRenew.notice.offNote"),
    });
  }
  return rendered(env, [donor.email], {
    ...donorFrame(env, donor),
    subject: t("membershipAutoRenew.notice.subject", vars),
    heading: t("membershipAutoRenew.notice.heading"),
    paragraphs: [t("membershipAutoRenew.notice.body", vars)],
    details: [
      ...details(env, membership, levelName, "membershipRenewals.labels.validUntil"),
      [t("membershipAutoRenew.labels.amount"), amount],
      [t("membershipAutoRenew.labels.chargeDate"), emailDate(membership.end, lang)],
      [t("membershipAutoRenew.labels.card"), cardOf(env, membership)],
    ],
    actions,
  });
};

/** A declined automatic renewal charge: the retry's date, or that auto-renewal stopped. */
export const renderAutoRenewFailed: KindRenderer<"membership-autorenew-failed"> = async (message, env) => {
  const found = await still(message, env);
  if (!found) return null;
  const { donor, membership, levelId, levelName } = found;
  const { t, lang } = env;
  const tx = await env.store.transactions.get(message.data.transactionId);
  const amount = tx?.amount != null && tx.currency ? emailMoney(tx.amount, tx.currency, lang) : "";
  const retryAt = message.data.retryAt;
  const vars = {
    level: levelName,
    museum: env.museum,
    date: emailDate(membership.end, lang),
    retry: retryAt ? emailDate(retryAt, lang) : "",
    amount,
  };
  return rendered(env, [donor.email], {
    ...donorFrame(env, donor),
    subject: t("membershipAutoRenew.failed.subject", vars),
    heading: t("membershipAutoRenew.failed.heading"),
    paragraphs: [
      t("membershipAutoRenew.failed.body", vars),
      t(retryAt ? "membershipAutoRenew.failed.retry" : "membershipAutoRenew.failed.stopped", vars),
    ],
    details: details(env, membership, levelName, "membershipRenewals.labels.validUntil"),
    actions: [await renewAction(env, membership, levelId, t("membershipAutoRenew.failed.renewButton"))],
  });
};
