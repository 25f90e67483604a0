/**
 * The storage contract for the museum's settings (`store.museum`, issue 27): its identity and its
 * membership levels, one record per install (`lib/shared/museum.ts` describes the fields). Types
 * only; the canonical form both backends store is in `museum_records.ts`.
 *
 * A fresh install stores nothing: `get` answers null and `lib/museum/` answers the defaults (version
 * 0). Every save is conditional on the version the owner's change was made from, bumps it by one and
 * writes its audit entry in the same atomic step, so two owners saving at once never overwrite each
 * other unseen, and the log and the settings never disagree.
 *
 * @module
 */
import type { WithAudit } from "./audit_types.ts";
import type {
  BothCurrencies,
  MembershipLevel,
  MuseumIdentity,
  MuseumSettings,
  PerLanguage,
} from "@/lib/shared/museum.ts";

export type { BothCurrencies, MembershipLevel, MuseumIdentity, MuseumSettings, PerLanguage };

/** What a save writes: everything but what the store keeps itself. */
export type MuseumSettingsInput = Pick<MuseumSettings, "identity" | "hero" | "levels" | "lastLevelId">;

/** The museum's settings: read, and saved over a version. */
export interface MuseumSettingsRepository {
  /** The stored settings, or null when none were ever saved (the defaults apply). */
  get(): Promise<MuseumSettings | null>;
  /**
   * Saves `input` as version `expected + 1`, at `at` (ISO) by `by` (an owner's email), only while
   * the stored version is `expected` (0: nothing stored yet), with `options.audit` in the same
   * atomic step. Answers what was stored, or null when the version had moved (nothing written).
   * Throws RangeError for a record no backend may store (`canonicalMuseumSettings`).
   */
  save(
    input: MuseumSettingsInput,
    expected: number,
    at: string,
    by: string,
    options?: WithAudit,
  ): Promise<MuseumSettings | null>;
}
