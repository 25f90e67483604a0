/**
 * The memberships' settings (issue 27), read by `lib/app/config.ts` beside the other groups and
 * listed in `docs/configuration.md`.
 *
 * @module
 */
import { type Env, wholeNumber } from "@/lib/core/config_values.ts";

/** How many days a membership stays in grace after its end unless set. */
export const DEFAULT_GRACE_DAYS = 30;

/** What the memberships read of the configuration. */
export interface MembershipSettings {
  /**
   * Days after a membership's end during which it is in grace (the member is not turned away, and
   * a renewal continues it from its end) before it lapses (`MEMBERSHIP_GRACE_DAYS`, 0..365).
   */
  graceDays: number;
}

/**
 * Reads the memberships' settings.
 *
 * @example
 * ```ts
 * readMemberships({ MEMBERSHIP_GRACE_DAYS: "14" }).graceDays; // 14
 * ```
 */
export function readMemberships(env: Env): MembershipSettings {
  return {
    graceDays: wholeNumber("MEMBERSHIP_GRACE_DAYS", env.MEMBERSHIP_GRACE_DAYS, DEFAULT_GRACE_DAYS, 0, 365),
  };
}
