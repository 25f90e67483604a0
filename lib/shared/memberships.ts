/**
 * Memberships as the donor portal and the back office will read them (issue 27): the states a
 * membership is in. Types only, so an island may import them.
 *
 * @module
 */

/** Where a membership is at a moment (`lib/memberships/state.ts` works it out). */
export const MEMBERSHIP_STATES = ["active", "grace", "lapsed"] as const;

/** One of {@link MEMBERSHIP_STATES}. */
export type MembershipState = typeof MEMBERSHIP_STATES[number];

/** One membership as the back office's members list shows it (`GET /api/memberships`). */
export interface MemberRow {
  number: string;
  email: string;
  /** The member's donor record's name ("" once erased). */
  name: string;
  /** The level of its last term, and that level's name in the asked language ("" if removed). */
  levelId: number;
  levelName: string;
  /** Worked out now (`lib/memberships/state.ts`). */
  state: MembershipState;
  /** The end of its paid terms, and of its grace (ISO 8601). */
  end: string;
  graceUntil: string;
  /** The names its cards carry (empty: the one card names the member). */
  cardholders: string[];
  /** Whether a monthly gift pays it. */
  monthly: boolean;
}

/** A page of the members list: its rows and where the next page starts (null: none). */
export interface MemberPage {
  data: MemberRow[];
  next: string | null;
}

/** One term of a member's history, with its level's name. */
export interface MemberTermView {
  levelId: number;
  levelName: string;
  start: string;
  end: string;
  kind: "join" | "renewal" | "upgrade" | "downgrade" | "monthly";
  amount: number;
  currency: 1 | 2;
  charges: number;
}

/** An email the outbox holds for the member's address (what was sent, or is to be). */
export interface MemberEmail {
  kind: string;
  createdAt: string;
  state: "queued" | "sent" | "skipped" | "failed";
  settledAt: string | null;
}

/** A member's page in the back office (`GET /api/memberships/{number}`). */
export interface MemberDetail extends MemberRow {
  createdAt: string;
  /** How many cardholders the level covers (the most staff may name). */
  maxCardholders: number;
  /** Newest first. */
  terms: MemberTermView[];
  /** Newest first. */
  emails: MemberEmail[];
  /**
   * Automatic renewal (issue 27, item 5), null while off: the kept card's last four digits, when
   * the next charge is (the end, or a retry's date) and how many charges this end were declined.
   */
  autoRenew: { last4: string | null; nextCharge: string; failedAttempts: number } | null;
}
