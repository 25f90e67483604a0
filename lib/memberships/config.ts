/**
 * The memberships' settings (issue 27), read by `lib/app/config.ts` beside the other groups and
 * listed in `docs/configuration.md`.
 *
 * @module
 */
import { ConfigError, type Env, wholeNumber } from "@/lib/core/config_values.ts";

/** How many days a membership stays in grace after its end unless set. */
export const DEFAULT_GRACE_DAYS = 30;

/** What the memberships read of the configuration. */
export interface MembershipSettings {
  /**
   * Days after a membership's end during which it is in grace (the member is not turned away, and
   * a renewal continues it from its end) before it lapses (`MEMBERSHIP_GRACE_DAYS`, 0..365).
   */
  graceDays: number;
  /**
   * Days before a membership's end on which a renewal reminder goes out (`MEMBERSHIP_REMINDER_DAYS`,
   * comma-separated, 0..365 each, at most 5; 0 is the end's own day), largest first; empty: none.
   */
  reminderDays: number[];
}

/** The reminders' days unless set: a month before, a week before and on the day. */
export const DEFAULT_REMINDER_DAYS = [30, 7, 0];

function reminderDays(raw: string | undefined): number[] {
  const text = raw?.trim();
  if (text === undefined || text === "") return DEFAULT_REMINDER_DAYS;
  if (text === "none") return [];
  const parts = text.split(",").map((p) => p.trim());
  const days = [...new Set(parts.map(Number))].sort((a, b) => b - a);
  if (parts.length > 5 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 365)) {
    throw new ConfigError(
      "MEMBERSHIP_REMINDER_DAYS",
      `must be up to 5 whole numbers of days from 0 to 365, comma-separated, or "none" (got "${text}")`,
    );
  }
  return days;
}

/**
 * Reads the memberships' settings.
 *
 * @example
 * ```ts
 * readMemberships({ MEMBERSHIP_GRACE_DAYS: "14" }).graceDays; // 14
 * readMemberships({ MEMBERSHIP_REMINDER_DAYS: "14,1" }).reminderDays; // [14, 1]
 * ```
 */
export function readMemberships(env: Env): MembershipSettings {
  return {
    graceDays: wholeNumber("MEMBERSHIP_GRACE_DAYS", env.MEMBERSHIP_GRACE_DAYS, DEFAULT_GRACE_DAYS, 0, 365),
    reminderDays: reminderDays(env.MEMBERSHIP_REMINDER_DAYS),
  };
}
