/**
 * Settings in the back office (issue 16): owners switch the feature flags (`lib/settings/flags.ts`). Each
 * switch is a conditional write with its `flag-changed` audit entry (from/to) in the same atomic
 * step (`flags.change`), so the log and the flag never disagree, and two owners switching at once
 * each see what happened. Every instance reads the flags from storage: the API and payments on
 * each request, pages at most `PAGE_FLAGS_MAX_AGE_MS` (a second) late, so a switch takes effect
 * everywhere within seconds.
 *
 * @module
 */

import { type Actor, actorEntry } from "@/lib/audit/mod.ts";
import { OWNERS, requireRole } from "@/lib/staff/mod.ts";
import { DomainError } from "@/lib/core/errors.ts";
import { FLAG_NAMES, type FlagName } from "./flags.ts";
import type { Store } from "@/lib/storage/types.ts";

/** A flag as the settings show it. */
export interface FlagSetting {
  flag: FlagName;
  enabled: boolean;
  /** When it last changed; null when storage has never held it (it counts as off). */
  updatedAt: string | null;
}

/** Another owner switched the flag between the read and the write: nothing was written. */
export class FlagChangedMeanwhileError extends DomainError {
  override readonly kind = "conflict";
  constructor(flag: string) {
    super(`${flag} was changed by someone else a moment ago: reload the settings and try again`);
  }
}

/** The server's configuration holds the flag at another value (`config.enforcedFeatures`). */
export class FlagEnforcedError extends DomainError {
  override readonly kind = "conflict";
  constructor(flag: string, value: boolean) {
    super(
      `${flag} is kept ${value ? "on" : "off"} by this server's configuration (FEATURE_${flag}); ` +
        "change that setting and restart to switch it",
    );
  }
}

/**
 * Every known flag with its state, in {@link FLAG_NAMES} order.
 *
 * @example
 * ```ts
 * const flags = await flagSettings(store); // [{ flag: "MONTHLY_PAYMENT", enabled: true, updatedAt: "…" }, …]
 * ```
 */
export async function flagSettings(store: Store): Promise<FlagSetting[]> {
  const stored = new Map((await store.flags.list()).map((f) => [f.flag, f]));
  return FLAG_NAMES.map((flag) => ({
    flag,
    enabled: stored.get(flag)?.enabled ?? false,
    updatedAt: stored.get(flag)?.updatedAt ?? null,
  }));
}

/**
 * Switches `flag` to `enabled` (owners only), audited as `flag-changed` with from/to in the same
 * write. The same value again writes nothing and no entry. Throws
 * {@link FlagChangedMeanwhileError} when another change won the race, and
 * {@link FlagEnforcedError} for a value the configuration forbids (`enforced`, e.g. test terminals
 * in production without `FEATURE_TEST_TERMINAL_PAYMENT`: every start would switch it back).
 *
 * @example
 * ```ts
 * await changeFlag(store, { admin: owner, address }, "MONTHLY_PAYMENT", false);
 * ```
 */
export async function changeFlag(
  store: Store,
  actor: Actor,
  flag: FlagName,
  enabled: boolean,
  enforced: Partial<Record<FlagName, boolean>> = {},
  now = new Date(),
): Promise<FlagSetting[]> {
  requireRole(actor.admin, OWNERS);
  const held = enforced[flag];
  if (held !== undefined && held !== enabled) throw new FlagEnforcedError(flag, held);
  const current = await store.flags.get(flag);
  const from = current?.enabled ?? null;
  if (from !== enabled) {
    const changed = await store.flags.change(flag, enabled, from, now.toISOString(), {
      audit: [actorEntry(actor, "flag-changed", flag, { [flag]: { from: from ?? false, to: enabled } })],
    });
    if (!changed) throw new FlagChangedMeanwhileError(flag);
  }
  return await flagSettings(store);
}
