/**
 * Memberships as stored, the same on both backends: a change's draft checked and made the record
 * both keep (its email normalized, its number kept, its terms in order, its `end`, `createdAt` and
 * `version`), and a `listByEnd` page's arguments checked. Throws RangeError for what no backend may
 * store.
 *
 * @module
 */
import { batchLimit } from "./queries.ts";
import { checkInteger, isoInstant, normalizeEmail } from "./records.ts";
import { GIFT_REMINDER_CHOICES, MAX_GIFT_MESSAGE } from "@/lib/shared/gift_membership.ts";
import {
  type AutoRenewal,
  MAX_CARDHOLDER_NAME,
  MAX_CARDHOLDERS,
  MAX_MEMBERSHIP_TERMS,
  type Membership,
  type MembershipCursor,
  type MembershipDraft,
  type MembershipTerm,
  TERM_KINDS,
  type TermGift,
} from "./membership_types.ts";

/** A member number as stored: 4 to 20 of digits, capital letters and dashes. */
const NUMBER = /^[0-9A-Z-]{4,20}$/;
const ID = /^[\w:.-]{1,100}$/;

function id(value: unknown, what: string): string {
  if (typeof value !== "string" || !ID.test(value)) throw new RangeError(`${what} is not an id`);
  return value;
}

function term(t: MembershipTerm, i: number, previousEnd: string | null): MembershipTerm {
  const what = `terms[${i}]`;
  const start = isoInstant(t.start, `${what}.start`);
  const end = isoInstant(t.end, `${what}.end`);
  if (end <= start) throw new RangeError(`${what} ends before it starts`);
  if (previousEnd !== null && start < previousEnd) {
    throw new RangeError(`${what} overlaps the term before it`);
  }
  if (!TERM_KINDS.includes(t.kind)) throw new RangeError(`unknown ${what}.kind ${JSON.stringify(t.kind)}`);
  if (t.currency !== 1 && t.currency !== 2) throw new RangeError(`${what}.currency must be 1 or 2`);
  return {
    levelId: checkInteger(t.levelId, `${what}.levelId`, 1),
    start,
    end,
    kind: t.kind,
    transactionId: id(t.transactionId, `${what}.transactionId`),
    subscriptionId: t.subscriptionId == null ? null : id(t.subscriptionId, `${what}.subscriptionId`),
    amount: checkInteger(t.amount, `${what}.amount`, 0),
    currency: t.currency,
    charges: checkInteger(t.charges, `${what}.charges`, 1),
    ...(t.gift == null ? {} : { gift: termGift(t.gift, what) }),
  };
}

/** A gift term's gift as stored (issue 28). */
function termGift(gift: TermGift, what: string): TermGift {
  if (!GIFT_REMINDER_CHOICES.includes(gift.reminders)) {
    throw new RangeError(`${what}.gift.reminders must be one of ${GIFT_REMINDER_CHOICES.join(", ")}`);
  }
  if (typeof gift.message !== "string" || gift.message.length > MAX_GIFT_MESSAGE) {
    throw new RangeError(`${what}.gift.message must be text of at most ${MAX_GIFT_MESSAGE} characters`);
  }
  return {
    giverDonorId: id(gift.giverDonorId, `${what}.gift.giverDonorId`),
    reminders: gift.reminders,
    deliverAt: isoInstant(gift.deliverAt, `${what}.gift.deliverAt`),
    message: gift.message,
  };
}

/** Cardholders' names as stored: trimmed, 1..100 characters, no control characters, at most 10. */
function cardholders(names: unknown): string[] {
  if (!Array.isArray(names) || names.length > MAX_CARDHOLDERS) {
    throw new RangeError(`cardholders must be a list of at most ${MAX_CARDHOLDERS} names`);
  }
  return names.map((name, i) => {
    const trimmed = typeof name === "string" ? name.trim() : "";
    // deno-lint-ignore no-control-regex
    if (trimmed === "" || trimmed.length > MAX_CARDHOLDER_NAME || /[\u0000-\u001f\u007f]/.test(trimmed)) {
      throw new RangeError(`cardholders[${i}] must be 1..${MAX_CARDHOLDER_NAME} printable characters`);
    }
    return trimmed;
  });
}

/** An automatic renewal as stored: checked and copied to exactly its fields. */
function autoRenewal(a: AutoRenewal): AutoRenewal {
  if (typeof a.token !== "string" || a.token === "" || a.token.length > 200) {
    throw new RangeError("autoRenew.token must be 1..200 characters");
  }
  if (a.last4 !== null && !/^\d{4}$/.test(a.last4)) throw new RangeError("autoRenew.last4 must be 4 digits");
  if (a.currency !== 1 && a.currency !== 2) throw new RangeError("autoRenew.currency must be 1 or 2");
  return {
    token: a.token,
    provider: id(a.provider, "autoRenew.provider"),
    last4: a.last4,
    currency: a.currency,
    transactionId: id(a.transactionId, "autoRenew.transactionId"),
    since: isoInstant(a.since, "autoRenew.since"),
    failedAttempts: checkInteger(a.failedAttempts, "autoRenew.failedAttempts", 0),
    retryAt: a.retryAt === null ? null : isoInstant(a.retryAt, "autoRenew.retryAt"),
  };
}

/**
 * The record stored for `draft` of the membership of `email`, written at `at` over `current` (the
 * record as read, or null for a new one).
 *
 * @example
 * ```ts
 * const next = canonicalMembership(draft, "Dana@Museum.org", new Date().toISOString(), null);
 * next.email; // "dana@museum.org"; next.version: 1
 * ```
 */
export function canonicalMembership(
  draft: MembershipDraft,
  email: string,
  at: string,
  current: Membership | null,
): Membership {
  const address = normalizeEmail(email);
  if (address === "" || address.length > 320) throw new RangeError("a membership needs an email");
  if (typeof draft.number !== "string" || !NUMBER.test(draft.number)) {
    throw new RangeError(`member number ${JSON.stringify(draft.number)} is not 4..20 of 0-9, A-Z and -`);
  }
  if (current && current.number !== draft.number) throw new RangeError("a member number never changes");
  if (!Array.isArray(draft.terms) || draft.terms.length === 0 || draft.terms.length > MAX_MEMBERSHIP_TERMS) {
    throw new RangeError(`a membership has 1..${MAX_MEMBERSHIP_TERMS} terms`);
  }
  const terms: MembershipTerm[] = [];
  for (const [i, t] of draft.terms.entries()) terms.push(term(t, i, terms.at(-1)?.end ?? null));
  const when = isoInstant(at, "at");
  // Left out of the draft: kept; null: turned off. Stored only while on.
  const renew = draft.autoRenew === undefined ? current?.autoRenew : draft.autoRenew;
  return {
    email: address,
    number: draft.number,
    donorId: id(draft.donorId, "donorId"),
    subscriptionId: draft.subscriptionId == null ? null : id(draft.subscriptionId, "subscriptionId"),
    cardholders: cardholders(draft.cardholders ?? current?.cardholders ?? []),
    terms,
    end: terms.at(-1)!.end,
    ...(renew ? { autoRenew: autoRenewal(renew) } : {}),
    createdAt: current?.createdAt ?? when,
    updatedAt: when,
    version: (current?.version ?? 0) + 1,
  };
}

/**
 * The checked arguments of `memberships.listByEnd`.
 *
 * @example
 * ```ts
 * const { from, to, limit, after } = listByEndArgs({ from, to }, 100, null);
 * ```
 */
export function listByEndArgs(
  range: { from: string; to: string },
  limit: number,
  after: MembershipCursor | null | undefined,
): { from: string; to: string; limit: number; after: MembershipCursor | null } {
  const from = isoInstant(range.from, "from");
  const to = isoInstant(range.to, "to");
  if (to < from) throw new RangeError(`to (${to}) is before from (${from})`);
  return {
    from,
    to,
    limit: batchLimit(limit),
    after: after ? { end: isoInstant(after.end, "after.end"), email: normalizeEmail(after.email) } : null,
  };
}

/** The level of a membership's last term: what `listByLevel` finds it by. */
export const lastLevelOf = (membership: Pick<Membership, "terms">): number =>
  membership.terms.at(-1)!.levelId;

/**
 * The checked arguments of `memberships.listByLevel`.
 *
 * @example
 * ```ts
 * const { levelId, from, to, limit, after } = listByLevelArgs(2, { from, to }, 50, null);
 * ```
 */
export function listByLevelArgs(
  levelId: number,
  range: { from: string; to: string },
  limit: number,
  after: MembershipCursor | null | undefined,
): ReturnType<typeof listByEndArgs> & { levelId: number } {
  return { ...listByEndArgs(range, limit, after), levelId: checkInteger(levelId, "levelId", 1) };
}

/**
 * The checked arguments of `memberships.listByEmailPrefix`: the prefix normalized as an address is.
 *
 * @example
 * ```ts
 * listByEmailPrefixArgs(" Dan", 10, null); // { prefix: "dan", limit: 10, after: null }
 * ```
 */
export function listByEmailPrefixArgs(
  prefix: string,
  limit: number,
  after: string | null | undefined,
): { prefix: string; limit: number; after: string | null } {
  const normalized = typeof prefix === "string" ? normalizeEmail(prefix) : "";
  if (normalized === "" || normalized.length > 320) {
    throw new RangeError("an email prefix has 1..320 characters");
  }
  return { prefix: normalized, limit: batchLimit(limit), after: after ? normalizeEmail(after) : null };
}
