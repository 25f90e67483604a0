/**
 * A member's page in the back office (issue 27, item 8): the membership with its terms (newest
 * first, each with its level's name), its cardholders and the level's limit, the member's name and
 * address, and the emails the outbox holds for the address's donor records; and staff correcting
 * the cardholders' names, at most the level's, audited (`membership-cardholders-changed`, the names
 * before and after) in the same atomic step as the change.
 *
 * @module
 */
import { type Actor, actorEntry } from "@/lib/audit/mod.ts";
import { DomainError } from "@/lib/core/errors.ts";
import { readMuseumSettings } from "@/lib/museum/mod.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import type { MemberDetail, MemberEmail } from "@/lib/shared/memberships.ts";
import { levelById } from "@/lib/shared/museum.ts";
import type { Membership, Store } from "@/lib/storage/types.ts";
import type { MembershipContext } from "./changes.ts";
import { DEFAULT_GRACE_DAYS } from "./config.ts";
import { memberRow } from "./member_list.ts";
import { memberNumberOf } from "./numbers.ts";
import { levelAt } from "./state.ts";

/** The most emails a member's page lists (newest first). */
export const MEMBER_EMAILS = 50;

/** A path's member number that is not one (the API answers 400). */
export class InvalidMemberNumberError extends DomainError {
  override readonly kind = "invalid";
  constructor() {
    super("This is not a member number");
  }
}

/** No membership has this number (the API answers 404). */
export class NoMemberError extends DomainError {
  override readonly kind = "not_found";
  constructor() {
    super("No membership has this member number");
  }
}

/** More cardholders than the member's level covers (the API answers 400). */
export class TooManyCardholdersError extends DomainError {
  override readonly kind = "invalid";
  constructor(max: number) {
    super(`This membership's level covers at most ${max} cardholders`, [
      { path: "cardholders", message: `at most ${max} cardholders` },
    ]);
  }
}

/** The membership another change wrote while staff's was being made, three times over (409). */
export class MembershipBusyError extends DomainError {
  override readonly kind = "conflict";
  constructor() {
    super("The membership changed meanwhile; try again");
  }
}

/** The membership of a number as typed (spaces, dashes, case and look-alikes forgiven). */
async function byNumber(store: Store, typed: string): Promise<Membership> {
  const number = memberNumberOf(typed);
  if (number === null) throw new InvalidMemberNumberError();
  const membership = await store.memberships.getByNumber(number);
  if (!membership) throw new NoMemberError();
  return membership;
}

async function emailsOf(store: Store, email: string): Promise<MemberEmail[]> {
  const donorIds = await store.donors.idsByEmail(email, 100);
  if (donorIds.length === 0) return [];
  const messages = await store.outbox.listByDonors(donorIds, MEMBER_EMAILS);
  return messages.map((m) => ({
    kind: m.kind,
    createdAt: m.createdAt,
    state: m.state,
    settledAt: m.settledAt,
  }));
}

/**
 * The member's page of the membership `number` at `now`, its words in `lang`.
 *
 * @example
 * ```ts
 * const page = await memberDetail({ store }, "7K3M-Q9TD", new Date(), "he");
 * page.terms[0].levelName; // "משפחה"
 * ```
 */
export async function memberDetail(
  ctx: MembershipContext,
  number: string,
  now: Date,
  lang: Lang,
): Promise<MemberDetail> {
  const { store } = ctx;
  const membership = await byNumber(store, number);
  const { levels } = await readMuseumSettings(store);
  const graceDays = ctx.graceDays ?? DEFAULT_GRACE_DAYS;
  const [row, emails] = await Promise.all([
    memberRow(store, membership, levels, now, graceDays, lang),
    emailsOf(store, membership.email),
  ]);
  return {
    ...row,
    createdAt: membership.createdAt,
    maxCardholders: levelById(levels, levelAt(membership, now))?.cardholders ?? 1,
    terms: membership.terms.toReversed().map((t) => ({
      levelId: t.levelId,
      levelName: levelById(levels, t.levelId)?.name[lang] ?? "",
      start: t.start,
      end: t.end,
      kind: t.kind,
      amount: t.amount,
      currency: t.currency,
      charges: t.charges,
    })),
    emails,
    autoRenew: membership.autoRenew
      ? {
        last4: membership.autoRenew.last4,
        nextCharge: membership.autoRenew.retryAt ?? membership.end,
        failedAttempts: membership.autoRenew.failedAttempts,
      }
      : null,
  };
}

/**
 * Staff name the cardholders of membership `number` (already trimmed and checked one by one):
 * at most the level it is at now covers; the change and its audit entry in one atomic step, made
 * only over the membership as read (so the entry's "before" is what was replaced). Answers the
 * membership as stored.
 *
 * @example
 * ```ts
 * await changeCardholders({ store }, actor, "7K3M-Q9TD", ["Rotem Ben-David"], new Date());
 * ```
 */
export async function changeCardholders(
  ctx: MembershipContext,
  actor: Actor,
  number: string,
  cardholders: string[],
  now: Date,
): Promise<Membership> {
  const { store } = ctx;
  const { levels } = await readMuseumSettings(store);
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await byNumber(store, number);
    const max = levelById(levels, levelAt(current, now))?.cardholders ?? 1;
    if (cardholders.length > max) throw new TooManyCardholdersError(max);
    const audit = actorEntry(actor, "membership-cardholders-changed", current.number, {
      before: current.cardholders,
      after: cardholders,
    });
    const stored = await store.memberships.change(
      {
        email: current.email,
        apply: (read) => read?.version === current.version ? { ...read, cardholders } : null,
      },
      now.toISOString(),
      { audit: [audit] },
    );
    if (stored) return stored;
  }
  throw new MembershipBusyError();
}
