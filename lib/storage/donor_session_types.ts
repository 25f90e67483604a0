/**
 * The storage contract for donors' sign-in links and sessions (`store.donorSessions`): the donor
 * portal (`lib/donor_portal/`) signs a donor in by an emailed one-time link, then keeps them signed in by
 * a cookie. Both are random tokens of which only the SHA-256 is stored, so a database leak signs
 * nobody in. A donor is an email address here (donations from several donor records under one
 * address are one donor), so both records carry the normalized email, not a donor id.
 *
 * Types only; the canonical form both backends store is in `donor_session_records.ts`.
 *
 * @module
 */

import type { WithMessages } from "./outbox_types.ts";

/** A one-time sign-in link's token as stored: its hash, never the token. */
export interface DonorSignIn {
  /** Hex SHA-256 of the token carried in the link. */
  hash: string;
  /** The address the link was sent to (normalized: trimmed, lower case). */
  email: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601: the link is refused from this instant on. */
  expiresAt: string;
  /** When it was used (it signs in once), or null. */
  usedAt: string | null;
}

/**
 * What a session may reach (issue 23):
 * - `full`: made by a one-time sign-in link the donor asked for by typing the address, so the
 *   donor proved they read that mailbox just now: every donor record of the address;
 * - `manage`: made by the manage link of a donor email (a reusable link that may have been
 *   forwarded): the one donor record the link names (`donorId`), and only what
 *   `lib/donor_portal/access.ts` lets it do there.
 */
export type DonorSessionScope = "full" | "manage";

/**
 * The most sessions one address keeps: creating one more (either scope) deletes the address's
 * signed-out and expired ones first, then its oldest, down to this many.
 */
export const MAX_SESSIONS_PER_EMAIL = 10;

/** A donor's session as stored: the hash of the cookie's token, never the token. */
export interface DonorSession {
  /** Hex SHA-256 of the cookie's token. */
  hash: string;
  /** The signed-in address (normalized). */
  email: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601: the session ends at this instant (the cookie lives no longer). */
  expiresAt: string;
  /** When it was revoked (signed out), or null. A revoked session never signs in again. */
  revokedAt: string | null;
  /** What it may reach: see {@link DonorSessionScope}. */
  scope: DonorSessionScope;
  /** With `manage`: the donor record the manage link named (its address is `email`); with `full`: null. */
  donorId: string | null;
}

/** Why {@link DonorSessionRepository.redeemSignIn} refused a link. */
export type SignInRefusal = "unknown" | "used" | "expired";

/** What {@link DonorSessionRepository.redeemSignIn} answers. */
export type SignInRedemption =
  | { ok: true; session: DonorSession }
  | { ok: false; reason: SignInRefusal };

/** Donors' sign-in links and sessions. */
export interface DonorSessionRepository {
  /**
   * Stores a new sign-in link and, in the same atomic step, the messages that carry it (the
   * `sign-in-link` email); a hash already stored is refused (throws) and writes nothing.
   */
  createSignIn(signIn: DonorSignIn, options?: WithMessages): Promise<void>;
  /** The sign-in link with this hash as stored, or null. */
  getSignIn(hash: string): Promise<DonorSignIn | null>;
  /**
   * Uses the link with hash `hash` at `now` (ISO) and, in the same atomic step, creates the `full`
   * session `session` for the link's email. Of any number of concurrent calls on one link (on any
   * instances), at most one succeeds, and only before `expiresAt`; the others answer why not, and
   * create nothing. Then the address keeps at most {@link MAX_SESSIONS_PER_EMAIL} sessions.
   */
  redeemSignIn(
    hash: string,
    now: string,
    session: Omit<DonorSession, "email" | "revokedAt" | "scope" | "donorId">,
  ): Promise<SignInRedemption>;
  /**
   * Stores a new session (a manage link signing its donor in); a hash already stored throws, a
   * `manage` session without a donor id or a `full` one with one is refused (RangeError). Then the
   * address keeps at most {@link MAX_SESSIONS_PER_EMAIL} sessions: its revoked and expired ones (at
   * the new session's `createdAt`) go first, then its oldest. Concurrent creations may leave more
   * for a moment; the last one to finish trims to the limit.
   */
  createSession(session: DonorSession): Promise<void>;
  /** The session with this hash as stored (expired and revoked ones too), or null. */
  getSession(hash: string): Promise<DonorSession | null>;
  /** Revokes a session; idempotent (the first revocation's time is kept); unknown hashes are ignored. */
  revokeSession(hash: string, revokedAt: string): Promise<void>;
  /**
   * Deletes every sign-in link and session of `email` (normalized when compared) and answers how
   * many: a donor's erasure (issue 15) signs the address out everywhere and leaves no record of it
   * here. Both are indexed by email, so it costs work in proportion to the address's own records
   * (at most {@link MAX_SESSIONS_PER_EMAIL} sessions and the links of the last two days).
   */
  deleteForEmail(email: string): Promise<number>;
  /**
   * Retention: deletes at most `limit` (1..1,000) sign-in links and sessions with
   * `expiresAt < before` (ISO), links first, and answers how many. Safe on several instances at once.
   */
  deleteExpired(before: string, limit: number): Promise<number>;
}
