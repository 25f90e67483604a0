/**
 * The storage contract for memberships (`store.memberships`, issue 27): one per donor email, made
 * or renewed by a gift at a membership level, with its member number and its history of terms.
 * Types only; the canonical form both backends store is in `membership_records.ts`, the rules (what
 * a gift does to a membership, its state) in `lib/memberships/`.
 *
 * A membership changes in the same atomic step as the payment that causes it:
 * `transactions.record` takes {@link WithMembership} beside its messages and applies the change only
 * when the transaction is new, so a payment recorded twice (the donor's return and the provider's
 * notification) never extends a membership twice, and a crash between the two cannot leave a
 * payment without its membership. The change is a pure function of the membership as stored
 * ({@link MembershipChange}): the store reads it, asks the function for the next record and writes
 * that under the same check as the transaction (Deno KV: the versionstamp read; PostgreSQL: an
 * advisory lock per email), asking again after a lost race.
 *
 * A member number is given once and never changes; no two memberships share one.
 *
 * @module
 */
import type { WithAudit } from "./audit_types.ts";
import type { GIFT_REMINDER_CHOICES } from "@/lib/shared/gift_membership.ts";

/** How a term came to be. */
export const TERM_KINDS = ["join", "renewal", "upgrade", "downgrade", "monthly"] as const;

/** One of {@link TERM_KINDS}. */
export type TermKind = typeof TERM_KINDS[number];

/** One paid period of a membership at one level. */
export interface MembershipTerm {
  /** The membership level (`lib/shared/museum.ts`) it is at. */
  levelId: number;
  /** ISO 8601; the term covers `start <= t < end`. */
  start: string;
  end: string;
  kind: TermKind;
  /** The transaction that paid it (a monthly term: its latest charge). */
  transactionId: string;
  /** The monthly gift paying it, or null for a one-time gift's term. */
  subscriptionId: string | null;
  /** What a charge of it paid, minor units, in `currency`. */
  amount: number;
  currency: 1 | 2;
  /** How many charges paid it: 1 for a one-time gift, one a month for a monthly gift. */
  charges: number;
  /**
   * A gift membership's term (issue 28): bought by another donor for this member. Absent for a
   * term the member paid for.
   */
  gift?: TermGift;
}

/** Who a gift membership's renewal reminders go to (issue 28), as the giver chose. */
export type GiftReminders = typeof GIFT_REMINDER_CHOICES[number];

/**
 * What a gift term keeps of its gift: the giver's donor record (their name is read from it when an
 * email is written, so erasing the giver removes it; their message is then left out too), who gets
 * the reminders about the term's end, the delivery time and the giver's message. Erased with the
 * recipient's membership.
 */
export interface TermGift {
  giverDonorId: string;
  reminders: GiftReminders;
  /** ISO 8601: when the welcome and card go to the recipient. */
  deliverAt: string;
  /** Plain text, at most 500 characters; may be empty. */
  message: string;
}

/** A membership as stored. */
export interface Membership {
  /** The donor's email, trimmed and lower case: one membership per address. */
  email: string;
  /** Short and printable (`lib/memberships/numbers.ts`), unique, never changed. */
  number: string;
  /** The donor record of the gift that made it, or made it again after a lapse (its name is the member's). */
  donorId: string;
  /** The monthly gift that keeps it active, or null. */
  subscriptionId: string | null;
  /**
   * The people its cards name (issue 27, household levels), as the member or staff typed them, at
   * most {@link MAX_CARDHOLDERS}; empty: the one card names the member (the donor record's name).
   */
  cardholders: string[];
  /** Oldest first, none overlapping; at most {@link MAX_MEMBERSHIP_TERMS} (the oldest are dropped). */
  terms: MembershipTerm[];
  /** The end of its last term (indexed: renewals and lapses are found by it). */
  end: string;
  /**
   * Automatic renewal (issue 27, item 5), present only while the member has it on: the card token of
   * the payment they consented with, charged at each end (`lib/monthly_gifts/auto_renewal.ts`).
   */
  autoRenew?: AutoRenewal;
  createdAt: string;
  updatedAt: string;
  /** Bumped by every write. */
  version: number;
}

/**
 * A membership's automatic renewal: the card its member consented to be charged with, once a term,
 * at the level's price then, and where its declined charges stand.
 */
export interface AutoRenewal {
  /** The provider's card token of the consenting payment (never shown, never logged). */
  token: string;
  /** The provider the token belongs to. */
  provider: string;
  /** The card's last four digits, or null when the provider gave none. */
  last4: string | null;
  /** The currency of the consenting payment: each charge is the level's price in it. */
  currency: 1 | 2;
  /** The transaction whose card it is, and when the member consented (ISO 8601). */
  transactionId: string;
  since: string;
  /** Declined charges for the current end so far (0 after a success), and when the next try is. */
  failedAttempts: number;
  retryAt: string | null;
}

/** The most terms a membership keeps (a monthly gift adds a term only when its level changes). */
export const MAX_MEMBERSHIP_TERMS = 60;

/** The most cardholders a membership names, and the longest name (characters). */
export const MAX_CARDHOLDERS = 10;
export const MAX_CARDHOLDER_NAME = 100;

/**
 * What a change writes: everything but what the store keeps itself. Cardholders left out are kept
 * as they are (none for a new membership).
 */
export type MembershipDraft =
  & Pick<Membership, "number" | "donorId" | "subscriptionId" | "terms">
  & Partial<Pick<Membership, "cardholders">>
  & {
    /** Automatic renewal: left out, kept as it is; null, turned off (its token dropped). */
    autoRenew?: AutoRenewal | null;
  };

/**
 * A change of one membership, decided from the record as stored. `apply` is pure: the store may
 * call it more than once (after a lost race, or when the number it gave a new membership is taken).
 */
export interface MembershipChange {
  /** The membership's email (the store trims it and makes it lower case). */
  email: string;
  /**
   * The next record from the current one (null: none yet), or null to write nothing. A draft with
   * no terms ends the membership: nothing it paid for is left (a refunded join, `lib/memberships/
   * refunds.ts`), so the store deletes it with its number and end index, as `erase` does.
   */
  apply(current: Membership | null): MembershipDraft | null;
}

/** What a cause's storage call takes to change a membership in its own atomic step. */
export interface WithMembership {
  /** Applied only when the cause is written. */
  membership?: MembershipChange;
}

/** Where a page of {@link MembershipRepository.listByEnd} starts after. */
export type MembershipCursor = Pick<Membership, "end" | "email">;

/** Memberships: read by email or number, changed, listed by their end. */
export interface MembershipRepository {
  get(email: string): Promise<Membership | null>;
  getByNumber(number: string): Promise<Membership | null>;
  /**
   * Applies `change` alone (a change no payment causes, e.g. staff's), at `at` (ISO), with
   * `options.audit` in the same atomic step when it writes. Answers what was stored, or null when
   * `apply` wrote nothing.
   */
  change(change: MembershipChange, at: string, options?: WithAudit): Promise<Membership | null>;
  /**
   * The memberships whose `end` is in `from <= end < to`, by end then email, at most `limit`
   * (1..1,000), after `after` when given: renewal reminders, lapses and the back office's
   * "expiring soon" find them so. Work in proportion to the page.
   */
  listByEnd(
    range: { from: string; to: string },
    limit: number,
    after?: MembershipCursor | null,
  ): Promise<Membership[]>;
  /**
   * The memberships whose last term is at `levelId` (the level a renewal keeps), with `end` in
   * `from <= end < to`, by end then email, at most `limit` (1..1,000), after `after` when given:
   * the back office's list filtered by level (issue 27, item 8). Reads an index by level, end and
   * email, so a page costs work in proportion to its size whatever the other levels hold.
   */
  listByLevel(
    levelId: number,
    range: { from: string; to: string },
    limit: number,
    after?: MembershipCursor | null,
  ): Promise<Membership[]>;
  /**
   * The memberships whose email starts with `prefix` (trimmed and lower-cased; 1..320 characters,
   * no wildcard: every character is itself), by email (UTF-8 bytes, as Deno KV orders keys), at
   * most `limit` (1..1,000), after the email `after` when given: the back office's search by an
   * address or its start. An exact address is its own prefix.
   */
  listByEmailPrefix(prefix: string, limit: number, after?: string | null): Promise<Membership[]>;
  /**
   * Deletes the membership of `email` (normalized) with its number and its place in the end index,
   * at the donor's request (erasure, `lib/donor_portal/erasure.ts`): the record is keyed by the
   * address and names the donor, and nothing else needs it once the donor is gone (the payments
   * keep their amounts in their transactions). Answers whether there was one. Idempotent.
   */
  erase(email: string): Promise<boolean>;
}
