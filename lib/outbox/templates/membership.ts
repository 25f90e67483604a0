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
import type { RenderedMessage } from "@/lib/storage/message_types.ts";
import type { Donor, Membership, MembershipTerm } from "@/lib/storage/types.ts";
import { type KindRenderer, recipientDonor, type RenderEnv } from "./render.ts";
import { giftScheduledEmail } from "./gift_membership.ts";
import { cardEmail } from "./card_email.ts";

type Kind = "welcome" | "renewed" | "resent";

function membershipEmail(
  env: RenderEnv,
  donor: Donor,
  membership: Membership,
  term: Pick<MembershipTerm, "levelId">,
  kind: Kind,
): Promise<RenderedMessage> {
  const { t } = env;
  const subject = { welcome: "welcomeSubject", renewed: "renewedSubject", resent: "resentSubject" }[kind];
  const heading = { welcome: "welcomeHeading", renewed: "renewedHeading", resent: "resentHeading" }[kind];
  const body = { welcome: "welcomeBody", renewed: "renewedBody", resent: "resentBody" }[kind];
  return cardEmail(env, donor, membership, term.levelId, (words) => ({
    subject: t(`memberCard.email.${subject}`, words),
    heading: t(`memberCard.email.${heading}`, words),
    paragraphs: [t(`memberCard.email.${body}`, words)],
  }));
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
