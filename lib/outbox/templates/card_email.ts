/**
 * The emails that attach a member's card(s): the membership emails (`membership.ts`) and the gift
 * membership's delivery (`gift_membership.ts`) say different things first, then the same.
 *
 * @module
 */
import { memberCardPdfs, membershipDate } from "@/lib/memberships/mod.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import { levelById } from "@/lib/shared/museum.ts";
import type { Attachment, RenderedMessage } from "@/lib/storage/message_types.ts";
import type { Donor, Membership } from "@/lib/storage/types.ts";
import { donorFrame, manageAction, rendered, type RenderEnv } from "./render.ts";

/** The words a card email's lead is written from. */
export type CardEmailWords = { museum: string; level: string; date: string; count: number };

/**
 * An email that attaches the member's card(s) (`memberCard.email`): its subject, heading and first
 * paragraphs from `lead`, then what the cards are, the level, the number and the end, and the
 * manage link. The membership emails and the gift membership's delivery (`gift_membership.ts`).
 */
export async function cardEmail(
  env: RenderEnv,
  donor: Donor,
  membership: Membership,
  levelId: number,
  lead: (words: CardEmailWords) => { subject: string; heading: string; paragraphs: string[] },
): Promise<RenderedMessage> {
  const { t, lang } = env;
  const settings = await readMuseumSettings(env.store);
  const level = levelById(settings.levels, levelId)?.name[lang] ?? "";
  const date = membershipDate(membership.end, lang);
  const cards: Attachment[] = env.memberCards
    ? await memberCardPdfs(env.memberCards, membership, lang, env.now())
    : [];
  const words = { museum: env.museum, level, date, count: cards.length };
  const { subject, heading, paragraphs } = lead(words);
  return rendered(env, [donor.email], {
    ...donorFrame(env, donor),
    subject,
    heading,
    paragraphs: [
      ...paragraphs,
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
