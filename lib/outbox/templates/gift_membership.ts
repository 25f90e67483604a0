/**
 * The gift membership emails (issue 28, item 3), each rendered when sent from the recipient's
 * membership as stored then (the term its transaction made names the giver, `TermGift`):
 * - to the giver, instead of the membership welcome: the gift is scheduled (who, which level, the
 *   delivery day; no card: it is the recipient's);
 * - `gift-membership-delivery`, to the recipient on the delivery day, in the language the giver
 *   chose: the welcome with the giver's name and message and the card(s) attached. A giver erased
 *   meanwhile is not named and their message is left out; a membership or term gone sends nothing;
 * - the giver's renewal reminder: the membership they gave is ending, with a link to give it again.
 *
 * Words: the locale object `giftMembership.email`.
 *
 * @module
 */
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import { levelById } from "@/lib/shared/museum.ts";
import type { RenderedMessage } from "@/lib/storage/message_types.ts";
import type { Donor, Membership, MembershipTerm, TermGift } from "@/lib/storage/types.ts";
import { emailDate } from "./format.ts";
import { cardEmail } from "./card_email.ts";
import {
  donorFrame,
  type KindRenderer,
  manageAction,
  recipientDonor,
  rendered,
  type RenderEnv,
} from "./render.ts";

const nameOf = (donor: Donor) => `${donor.firstName} ${donor.lastName}`.trim();

async function levelName(env: RenderEnv, levelId: number): Promise<string> {
  const level = levelById((await readMuseumSettings(env.store)).levels, levelId);
  return level ? level.name[env.lang] ?? level.name.en : "";
}

/**
 * The giver's "your gift is scheduled" email (the `membership` message of a gift's transaction,
 * sent to the giver): the recipient's name, the level and the delivery day.
 */
export async function giftScheduledEmail(
  env: RenderEnv,
  giver: Donor,
  membership: Membership,
  term: MembershipTerm & { gift: TermGift },
): Promise<RenderedMessage> {
  const { t, lang } = env;
  const recipient = await env.store.donors.get(membership.donorId);
  const name = recipient && recipient.erasedAt === undefined ? nameOf(recipient) : "";
  const level = await levelName(env, term.levelId);
  const date = emailDate(term.gift.deliverAt, lang);
  const words = { name, level, date, museum: env.museum };
  return rendered(env, [giver.email], {
    ...donorFrame(env, giver),
    subject: t("giftMembership.email.scheduledSubject", words),
    heading: t("giftMembership.email.scheduledHeading"),
    paragraphs: [t("giftMembership.email.scheduledBody", words)],
    details: [
      [t("giftMembership.email.recipient"), name],
      [t("memberCard.level"), level],
      [t("giftMembership.email.deliveryDate"), date],
    ],
    actions: [await manageAction(env, giver.id)],
  });
}

/** The recipient's welcome with the card, on the delivery day. */
export const renderGiftDelivery: KindRenderer<"gift-membership-delivery"> = async (message, env) => {
  const donor = await recipientDonor(message, env);
  const membership = await env.store.memberships.get(message.data.email);
  const term = membership?.terms.find((t) => t.transactionId === message.data.transactionId);
  if (!donor || !membership || !term?.gift) return null;
  const { t } = env;
  const giverRecord = await env.store.donors.get(term.gift.giverDonorId);
  // Erased at their request: neither their name nor their words are shown.
  const giver = giverRecord && giverRecord.erasedAt === undefined ? nameOf(giverRecord) : "";
  const named = giver ? "" : "Anonymous";
  const said = giver && term.gift.message
    ? [t("giftMembership.email.messageFrom", { giver }), term.gift.message]
    : [];
  return await cardEmail(env, donor, membership, term.levelId, (words) => ({
    subject: t(`giftMembership.email.deliverySubject${named}`, { ...words, giver }),
    heading: t("giftMembership.email.deliveryHeading"),
    paragraphs: [t(`giftMembership.email.deliveryBody${named}`, { ...words, giver }), ...said],
  }));
};

/**
 * The giver's renewal reminder of a gift membership: the membership they gave ends; the button
 * opens the donation page at its level (the member's renewal link would fill in the member's details).
 */
export async function giverReminderEmail(
  env: RenderEnv,
  giver: Donor,
  membership: Membership,
  levelId: number,
  level: string,
): Promise<RenderedMessage> {
  const { t, lang } = env;
  const member = await env.store.donors.get(membership.donorId);
  const name = member && member.erasedAt === undefined ? nameOf(member) : "";
  const words = { name, level, museum: env.museum, date: emailDate(membership.end, lang) };
  const url = new URL(`/${lang}/`, env.publicUrl);
  url.searchParams.set("level", String(levelId));
  return rendered(env, [giver.email], {
    ...donorFrame(env, giver),
    subject: t("giftMembership.email.reminderSubject", words),
    heading: t("giftMembership.email.reminderHeading"),
    paragraphs: [t("giftMembership.email.reminderBody", words)],
    details: [
      [t("giftMembership.email.recipient"), name],
      [t("memberCard.level"), level],
      [t("memberCard.validUntil"), words.date],
    ],
    actions: [{ label: t("giftMembership.email.reminderButton"), url: url.href }],
  });
}
