/**
 * A membership's cards (issue 27, items 3 and 4): one per cardholder (the names the member gave,
 * or the member's own name when none), each with the museum's name, the level, the member number,
 * the valid-until date in the card's language and the QR code of its signed token
 * (`card_token.ts`), drawn as a PDF or a PNG by the card workers (`card_pool.ts`).
 *
 * The portal's pages and the membership emails read cards from here, from what storage holds at
 * that moment: a renamed cardholder's card carries the new name, an erased membership has none.
 *
 * @module
 */
import { translator } from "@/lib/core/i18n.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import { dirOf, isLang, type Lang } from "@/lib/shared/languages.ts";
import { coloursOf, levelById } from "@/lib/shared/museum.ts";
import type { Attachment } from "@/lib/storage/message_types.ts";
import type { Membership, Store } from "@/lib/storage/types.ts";
import type { MemberCardFace } from "./card_face.ts";
import type { RenderMemberCard } from "./card_pool.ts";
import { memberCardKey, signMemberCardToken } from "./card_token.ts";
import { DEFAULT_GRACE_DAYS } from "./config.ts";
import type { WalletSettings } from "./config_wallet.ts";
import { levelAt } from "./state.ts";

/** What drawing a membership's cards reads and uses. */
export interface MemberCardContext {
  store: Pick<Store, "donors" | "museum">;
  /** The app secret the card key is derived from (`card_token.ts`). */
  appSecret: string;
  /** The card workers (`services.memberCards.render`). */
  render: RenderMemberCard;
  /** Days of grace after the end: how long past it a card's token still verifies. */
  graceDays?: number;
  /** The museum's pass certificates (`config.wallet`); without them, no Apple Wallet pass. */
  wallet?: WalletSettings | null;
}

/** The forms a card comes in: a PDF, a picture, an Apple Wallet pass. */
export type MemberCardFormat = "pdf" | "png" | "pkpass";

/** An Apple Wallet pass's media type. */
const PKPASS_TYPE = "application/vnd.apple.pkpass";

/** The time zone a card's date is written in: the museum's. */
const TIME_ZONE = "Asia/Jerusalem";
const LOCALES: Record<Lang, string> = { en: "en-US", he: "he-IL", ru: "ru-RU", pt: "pt-BR", es: "es-ES" };

/**
 * A date as the card and the membership's pages write it, in `lang`.
 *
 * @example
 * ```ts
 * membershipDate("2027-11-29T10:00:00.000Z", "en"); // "November 29, 2027"
 * ```
 */
export function membershipDate(iso: string, lang: Lang): string {
  return new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: "long", timeZone: TIME_ZONE }).format(
    new Date(iso),
  );
}

/**
 * The names a membership's cards carry, in order: the cardholders the member named, or the member
 * (the donor record's name) alone. Empty when neither is known (an erased donor).
 */
export async function cardholderNames(
  store: Pick<Store, "donors">,
  membership: Pick<Membership, "cardholders" | "donorId">,
): Promise<string[]> {
  if (membership.cardholders.length > 0) return [...membership.cardholders];
  const donor = await store.donors.get(membership.donorId);
  if (!donor || donor.erasedAt) return [];
  const name = `${donor.firstName} ${donor.lastName}`.trim();
  return name ? [name] : [];
}

/**
 * What the card of cardholder `holder` (0-based) of `membership` says in `lang`, with its token
 * signed now; null when the membership has no such cardholder.
 */
export async function memberCardFace(
  ctx: Omit<MemberCardContext, "render">,
  membership: Membership,
  holder: number,
  language: string,
  now: Date = new Date(),
): Promise<MemberCardFace | null> {
  const names = await cardholderNames(ctx.store, membership);
  if (!Number.isInteger(holder) || holder < 0 || holder >= names.length) return null;
  const lang: Lang = isLang(language) ? language : "en";
  const t = translator(lang);
  const settings = await readMuseumSettings(ctx.store);
  const levelId = levelAt(membership, now);
  const level = levelById(settings.levels, levelId);
  const token = await signMemberCardToken(
    await memberCardKey(ctx.appSecret),
    {
      number: membership.number,
      levelId,
      validUntil: membership.end,
      holder,
      name: names[holder],
    },
    ctx.graceDays ?? DEFAULT_GRACE_DAYS,
    now,
  );
  return {
    lang,
    dir: dirOf(lang),
    museum: settings.identity.name[lang],
    title: t("memberCard.title"),
    name: names[holder],
    level: level?.name[lang] ?? "",
    numberLabel: t("memberCard.number"),
    number: membership.number,
    validLabel: t("memberCard.validUntil"),
    validUntil: membershipDate(membership.end, lang),
    token,
  };
}

/** A card's file name: `member-card-<number>-<n>.pdf` (ASCII: every mail client shows it). */
export const cardFileName = (number: string, holder: number, format: MemberCardFormat) =>
  `member-card-${number}-${holder + 1}.${format}`;

/**
 * The card of cardholder `holder` as a file (PDF, PNG or Apple Wallet pass), or null when there is
 * no such cardholder, or a pass is asked for and the museum has set no pass certificates.
 *
 * @example
 * ```ts
 * const file = await memberCardFile(ctx, membership, 0, "he", "pdf"); // { filename, contentType, content }
 * ```
 */
export async function memberCardFile(
  ctx: MemberCardContext,
  membership: Membership,
  holder: number,
  language: string,
  format: MemberCardFormat,
  now: Date = new Date(),
): Promise<Attachment | null> {
  if (format === "pkpass" && !ctx.wallet) return null;
  const face = await memberCardFace(ctx, membership, holder, language, now);
  if (!face) return null;
  if (format === "pkpass") {
    const graceMs = (ctx.graceDays ?? DEFAULT_GRACE_DAYS) * 86_400_000;
    const pass = await ctx.render(face, {
      kind: "pkpass",
      wallet: ctx.wallet!,
      holder,
      expiresAt: new Date(Date.parse(membership.end) + graceMs).toISOString(),
      colours: coloursOf(await readMuseumSettings(ctx.store)),
    });
    return {
      filename: cardFileName(membership.number, holder, format),
      contentType: PKPASS_TYPE,
      content: pass,
    };
  }
  return {
    filename: cardFileName(membership.number, holder, format),
    contentType: format === "pdf" ? "application/pdf" : "image/png",
    content: await ctx.render(face, format),
  };
}

/** Every card of `membership` as PDFs (the emails attach them), in order. */
export async function memberCardPdfs(
  ctx: MemberCardContext,
  membership: Membership,
  language: string,
  now: Date = new Date(),
): Promise<Attachment[]> {
  const names = await cardholderNames(ctx.store, membership);
  const files = await Promise.all(
    names.map((_, i) => memberCardFile(ctx, membership, i, language, "pdf", now)),
  );
  return files.filter((file): file is Attachment => file !== null);
}
