/**
 * The membership emails (issue 27): `membership`, enqueued with every transaction of a gift at a
 * level and decided here, when sent, from the membership's term that transaction made: a join is
 * welcomed, a renewal or an upgrade (or a downgrade from the next term) says until when the
 * membership now runs; both attach the card of every cardholder (PDF). A monthly gift's charge after
 * its first (the term's `charges` above one), and a membership no longer stored (erased), send
 * nothing. `member-card`: staff's resend of the cards. Words: the locale object `memberCard.email`.
 *
 * @module
 */
import { memberCardPdfs, membershipDate } from "@/lib/memberships/mod.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import { levelById } from "@/lib/shared/museum.ts";
import type { Attachment, RenderedMessage } from "@/lib/storage/message_types.ts";
import type { Donor, Membership, MembershipTerm } from "@/lib/storage/types.ts";
import {
  donorFrame,
  type KindRenderer,
  manageAction,
  recipientDonor,
  rendered,
  type RenderEnv,
} from "./render.ts";
import { giftScheduledEmail } from "./gift_membership.ts";

type Kind = "welcome" | "renewed" | "resent";

async function membershipEmail(
  env: RenderEnv,
  donor: Donor,
  membership: Membership,
  term: Pick<MembershipTerm, "levelId">,
  kind: Kind,
): Promise<RenderedMessage> {
  const { t, lang } = env;
  const settings = await readMuseumSettings(env.store);
  const level = levelById(settings.levels, term.levelId)?.name[lang] ?? "";
  const date = membershipDate(membership.end, lang);
  const cards: Attachment[] = env.memberCards
    ? await memberCardPdfs(env.memberCards, membership, lang, env.now())
    : [];
  const words = { museum: env.museum, level, date, count: cards.length };
  const subject = { welcome: "welcomeSubject", renewed: "renewedSubject", resent: "resentSubject" }[kind];
  const heading = { welcome: "welcomeHeading", renewed: "renewedHeading", resent: "resentHeading" }[kind];
  const body = { welcome: "welcomeBody", renewed: "renewedBody", resent: "resentBody" }[kind];
  return rendered(env, [donor.email], {
    ...donorFrame(env, donor),
    subject: t(`memberCard.email.${subject}`, words),
    heading: t(`memberCard.email.${heading}`, words),
    paragraphs: [
      t(`memberCard.email.${body}`, words),
      ...(cards.length === 1 ? [t("memberCard.email.attached")] : []),
      ...(cards.length > 1 ? [t("memberCard.email.attachedMany", words)] : []),
      t("memberCard.email.portal"),
    ],
    details: [
      [t("memberCard.level"), level],
      [t("memberCard.number"), membership.number],
      [t("memberCard.validUntil"), date],
    ],
    actions: [await manageAction(env, donor.id)],
  }, cards);
}

/** The welcome or "renewed until" email of a gift at a level; null when there is nothing to say. */
export const renderMembership: KindRenderer<"membership"> = async (message, env) => {
  const donor = await recipientDonor(message, env);
  if (!donor) return null;
  const membership = await env.store.memberships.get(message.data.email);
  const term = membership?.terms.find((t) => t.transactionId === message.data.transactionId);
  // Gone (erased), or a later monthly charge took the term over, or this is a charge after the first.
  if (!membership || !term || term.charges > 1) return null;
  // A gift membership (issue 28): the giver hears it is scheduled; the recipient's welcome is the delivery.
  if (term.gift) {
    return term.gift.giverDonorId === donor.id
      ? await giftScheduledEmail(env, donor, membership, { ...term, gift: term.gift })
      : null;
  }
  return await membershipEmail(env, donor, membership, term, term.kind === "join" ? "welcome" : "renewed");
};

/** Staff's resend of a member's cards; null when the membership is gone. */
export const renderMemberCard: KindRenderer<"member-card"> = async (message, env) => {
  const donor = await recipientDonor(message, env);
  const membership = await env.store.memberships.get(message.data.email);
  const term = membership?.terms.at(-1);
  if (!donor || !membership || !term) return null;
  return await membershipEmail(env, donor, membership, term, "resent");
};
