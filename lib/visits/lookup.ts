/**
 * The front desk's look-ups (issue 28): a member by the card's scanned token, by member number, or
 * by a search of name or email, each answered as the desk shows it ({@link DeskMember}).
 *
 * A scanned token is checked with the card key's public half first (a changed byte, another key or
 * another kind of token is refused, {@link InvalidCardError}); a genuine one past its expiry still
 * names its member. The state is then read from storage, never from the card: a card printed
 * before a renewal answers the renewed membership, and one whose membership is gone (refunded,
 * erased) answers `unknown`. The search is the members list's own (`listMembers`), bounded.
 *
 * @module
 */
import {
  listMembers,
  memberCardPublicKey,
  MemberCardTokenError,
  memberNumberOf,
  memberRow,
  type MembershipContext,
  verifyMemberCardToken,
} from "@/lib/memberships/mod.ts";
import { DEFAULT_GRACE_DAYS } from "@/lib/memberships/mod.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { MemberRow } from "@/lib/shared/memberships.ts";
import { guestsOf, levelById, type MembershipLevel } from "@/lib/shared/museum.ts";
import type { DeskMember } from "@/lib/shared/visits.ts";
import { InvalidCardError, InvalidLookupError } from "./errors.ts";

/** What the look-ups read: storage, the grace days, the app secret the card key derives from. */
export interface DeskContext extends MembershipContext {
  appSecret: string;
}

/** The most members a desk search answers. */
export const DESK_SEARCH_LIMIT = 10;

/** What the desk answers when nothing is found. */
export const UNKNOWN_MEMBER: DeskMember = {
  state: "unknown",
  number: null,
  name: "",
  levelId: null,
  levelName: "",
  validUntil: null,
  graceUntil: null,
  cardholders: [],
  holder: null,
  guests: 0,
};

/** A members-list row as the desk shows it. */
function deskMember(row: MemberRow, levels: readonly MembershipLevel[], holder: number | null): DeskMember {
  const cardholders = row.cardholders.length > 0 ? row.cardholders : [row.name].filter(Boolean);
  return {
    state: row.state,
    number: row.number,
    name: row.name,
    levelId: row.levelId,
    levelName: row.levelName,
    validUntil: row.end,
    graceUntil: row.graceUntil,
    cardholders,
    holder: holder !== null && holder < cardholders.length ? holder : null,
    guests: guestsOf(levelById(levels, row.levelId)),
  };
}

/**
 * The member `number` names, as the desk shows them now (`unknown` when no membership has it).
 *
 * @example
 * ```ts
 * (await memberByNumber(ctx, "7K3M-Q9TD", new Date(), "en")).state; // "active"
 * ```
 */
export async function memberByNumber(
  ctx: MembershipContext,
  typed: string,
  now: Date,
  lang: Lang,
  holder: number | null = null,
): Promise<DeskMember> {
  const number = memberNumberOf(typed);
  if (number === null) throw new InvalidLookupError("number", "This is not a member number");
  const membership = await ctx.store.memberships.getByNumber(number);
  if (!membership) return { ...UNKNOWN_MEMBER, number };
  const { levels } = await readMuseumSettings(ctx.store);
  const graceDays = ctx.graceDays ?? DEFAULT_GRACE_DAYS;
  return deskMember(await memberRow(ctx.store, membership, levels, now, graceDays, lang), levels, holder);
}

/** The member number a genuine card's token names, or throws {@link InvalidCardError}. */
async function cardNumber(
  appSecret: string,
  token: string,
  now: Date,
): Promise<{ number: string; holder: number }> {
  const publicJwk = await memberCardPublicKey(appSecret);
  try {
    const claims = await verifyMemberCardToken(token, publicJwk, now);
    return { number: claims.number, holder: claims.holder };
  } catch (e) {
    if (!(e instanceof MemberCardTokenError)) throw e;
    if (e.reason !== "expired") throw new InvalidCardError();
    // Genuine (the signature is checked before the expiry): the member may have renewed since.
    const { decodeJwt } = await import("jose");
    const { sub, h } = decodeJwt(token);
    if (typeof sub !== "string") throw new InvalidCardError();
    return { number: sub, holder: typeof h === "number" ? h : 0 };
  }
}

/**
 * The member a scanned card's token names, as the desk shows them now.
 *
 * @example
 * ```ts
 * const member = await memberByCard({ store, appSecret }, scanned, new Date(), "he");
 * ```
 */
export async function memberByCard(
  ctx: DeskContext,
  token: string,
  now: Date,
  lang: Lang,
): Promise<DeskMember> {
  const { number, holder } = await cardNumber(ctx.appSecret, token.trim(), now);
  return await memberByNumber(ctx, number, now, lang, holder);
}

/**
 * The members a desk search finds (the members list's search: a number, an address or its start,
 * words of the name), at most {@link DESK_SEARCH_LIMIT}.
 *
 * @example
 * ```ts
 * (await searchDesk(ctx, "levi", new Date(), "en")).map((m) => m.number);
 * ```
 */
export async function searchDesk(
  ctx: MembershipContext,
  search: string,
  now: Date,
  lang: Lang,
): Promise<DeskMember[]> {
  const text = search.trim();
  if (text.length < 2) throw new InvalidLookupError("q", "Type at least 2 characters to search");
  const [{ levels }, page] = await Promise.all([
    readMuseumSettings(ctx.store),
    listMembers(ctx, { search: text, limit: DESK_SEARCH_LIMIT, lang }, now),
  ]);
  return page.data.map((row) => deskMember(row, levels, null));
}
