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
