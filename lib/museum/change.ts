/**
 * An owner changes the museum's settings (issue 27): its name and its membership levels, the whole
 * settings at once, over the version the owner read. The change is checked first (every field at
 * fault listed, in words a person reads), then saved conditional on that version with its
 * `museum-settings-changed` audit entry (the version and what changed) in the same atomic step
 * (`store.museum.save`), so of two owners saving at once one wins and the other is told; a change
 * that changes nothing writes nothing. Every instance reads the settings from storage: payments and
 * the API at once, pages within a second (`settings.ts`).
 *
 * New levels get the next id; a level keeps its id for good and a removed level's id is never given
 * to another (`lastLevelId`), so memberships at it keep meaning what they meant.
 *
 * @module
 */
import { type Actor, actorEntry } from "@/lib/audit/mod.ts";
import type { FieldError } from "@/lib/core/errors.ts";
import { contrast, MIN_TEXT_CONTRAST } from "@/lib/shared/colours.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";
import { MIN_AMOUNT } from "@/lib/shared/money.ts";
import {
  type BrandColours,
  DRAWN_WITH,
  type MembershipLevel,
  type MuseumSettings,
} from "@/lib/shared/museum.ts";
import { OWNERS, requireRole } from "@/lib/staff/mod.ts";
import { MUSEUM_LIMITS } from "@/lib/storage/museum_records.ts";
import type { MuseumSettingsInput, Store } from "@/lib/storage/types.ts";
import { InvalidMuseumSettingsError, MuseumSettingsChangedMeanwhileError } from "./errors.ts";
import type { MuseumSettingsChange } from "./schemas.ts";
import { readMuseumSettings } from "./settings.ts";

/** What a change reads besides the store: the largest payment the server takes, in major units. */
export interface MuseumChangeLimits {
  maxAmount: number;
}

/** The most changed fields an audit entry names (its changes stay far under 4 KB). */
const MAX_NAMED_CHANGES = 30;

/** The checked levels of `change`, with their ids, and every problem found. */
function checkLevels(
  change: MuseumSettingsChange,
  current: MuseumSettings,
  limits: MuseumChangeLimits,
): { levels: MembershipLevel[]; lastLevelId: number; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const known = new Set(current.levels.map((level) => level.id));
  const seen = new Set<number>();
  let lastLevelId = current.lastLevelId;
  const levels = change.levels.map((input, i): MembershipLevel => {
    const at = `levels.${i}`;
    let id = input.id ?? null;
    if (id !== null && !known.has(id)) {
      errors.push({ path: `${at}.id`, message: `there is no level ${id} (a new level has no id)` });
    } else if (id !== null && seen.has(id)) {
      errors.push({ path: `${at}.id`, message: `level ${id} is given twice` });
    }
    if (id === null) id = ++lastLevelId;
    seen.add(id);
    const max = limits.maxAmount * 100;
    for (const currency of ["nis", "dollars"] as const) {
      const price = input.price[currency];
      if (price < MIN_AMOUNT * 100 || price > max) {
        errors.push({
          path: `${at}.price.${currency}`,
          message: `the price must be from ${MIN_AMOUNT * 100} to ${max} (minor units)`,
        });
      }
      if (input.benefitsValue[currency] > price) {
        errors.push({
          path: `${at}.benefitsValue.${currency}`,
          message: "the benefits' value is more than the price",
        });
      }
    }
    const benefits = Object.fromEntries(
      LANGUAGES.map((
        lang,
      ) => [lang, input.benefits[lang].map((line) => line.trim()).filter((line) => line !== "")]),
    ) as MembershipLevel["benefits"];
    return { ...input, id, benefits };
  });
  if (lastLevelId > MUSEUM_LIMITS.levelId) {
    errors.push({ path: "levels", message: `no more than ${MUSEUM_LIMITS.levelId} levels can ever be made` });
  }
  return { levels, lastLevelId, errors };
}

/**
 * Each brand colour that some text drawn with it would be hard to read on (WCAG AA, 4.5:1 for
 * normal text), with its worst contrast.
 */
function checkColours(colours: BrandColours | undefined): FieldError[] {
  if (!colours) return [];
  return (Object.keys(DRAWN_WITH) as (keyof BrandColours)[]).flatMap((which) => {
    const [worst, ratio] = DRAWN_WITH[which].map((other) => [other, contrast(colours[which], other)] as const)
      .sort((a, b) => a[1] - b[1])[0];
    return ratio >= MIN_TEXT_CONTRAST ? [] : [{
      path: `identity.colours.${which}`,
      message: `${colours[which]} has a contrast of ${ratio.toFixed(2)}:1 with ${worst}, which it is drawn ` +
        `with; text needs at least ${MIN_TEXT_CONTRAST}:1`,
    }];
  });
}

/** The fields that differ between the settings before and after, as paths (`levels.2.price.nis`). */
export function changedFields(before: MuseumSettingsInput, after: MuseumSettingsInput): string[] {
  const changed: string[] = [];
  const walk = (a: unknown, b: unknown, path: string) => {
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const key of keys) walk((a as never)[key], (b as never)[key], path ? `${path}.${key}` : key);
    } else changed.push(path);
  };
  walk(before.identity, after.identity, "identity");
  walk(before.hero, after.hero, "hero");
  // A level saved before it had a donation share has 100 (the whole payment a donation).
  const beforeById = new Map(before.levels.map((level) => [level.id, { donationShare: 100, ...level }]));
  for (const level of after.levels) {
    const old = beforeById.get(level.id);
    if (!old) changed.push(`levels.${level.id} added`);
    else walk(old, level, `levels.${level.id}`);
  }
  for (const level of before.levels) {
    if (!after.levels.some((l) => l.id === level.id)) changed.push(`levels.${level.id} removed`);
  }
  // The levels both have, in each one's order: a move is a change of its own.
  const afterIds = new Set(after.levels.map((l) => l.id));
  const kept = (levels: MembershipLevel[], other: Set<number>) =>
    levels.map((l) => l.id).filter((id) => other.has(id)).join(",");
  if (kept(before.levels, afterIds) !== kept(after.levels, new Set(beforeById.keys()))) {
    changed.push("levels order");
  }
  return changed;
}

/**
 * Saves an owner's change of the museum's settings and answers the settings now stored (the same
 * settings when nothing changed). Throws {@link InvalidMuseumSettingsError} listing every field at
 * fault, {@link MuseumSettingsChangedMeanwhileError} when the settings moved on since `change.version`,
 * and the staff concept's error for anyone but an owner.
 *
 * @example
 * ```ts
 * const saved = await changeMuseumSettings(store, { admin: owner, address }, change, { maxAmount: 100_000 });
 * ```
 */
export async function changeMuseumSettings(
  store: Store,
  actor: Actor,
  change: MuseumSettingsChange,
  limits: MuseumChangeLimits,
  now = new Date(),
): Promise<MuseumSettings> {
  requireRole(actor.admin, OWNERS);
  const current = await readMuseumSettings(store);
  if (change.version !== current.version) {
    throw new MuseumSettingsChangedMeanwhileError(current.version, change.version);
  }
  const { levels, lastLevelId, errors: levelErrors } = checkLevels(change, current, limits);
  const errors = [...checkColours(change.identity.colours), ...levelErrors];
  if (errors.length > 0) throw new InvalidMuseumSettingsError(errors);
  // Colours not sent are kept as they are; the logo and the hero's image change only by upload
  // (`images.ts`), and the hero's texts when sent.
  const colours = change.identity.colours ?? current.identity.colours;
  const { logo } = current.identity;
  const identity = { name: change.identity.name, ...(colours ? { colours } : {}), ...(logo ? { logo } : {}) };
  const image = current.hero?.image;
  const hero = change.hero ? { ...change.hero, ...(image ? { image } : {}) } : current.hero;
  return await saveMuseumSettings(store, actor, current, { identity, hero, levels, lastLevelId }, now);
}

/**
 * Saves `next` over `current` (read at the start of the owner's change) with its
 * `museum-settings-changed` audit entry naming what changed, and answers what is stored: `current`
 * itself when nothing changed. Throws {@link MuseumSettingsChangedMeanwhileError} when the settings
 * moved on since `current` was read.
 *
 * @example
 * ```ts
 * await saveMuseumSettings(store, actor, current, { ...current, identity: { ...current.identity, logo } });
 * ```
 */
export async function saveMuseumSettings(
  store: Store,
  actor: Actor,
  current: MuseumSettings,
  next: MuseumSettingsInput,
  now = new Date(),
): Promise<MuseumSettings> {
  const changed = changedFields(current, next);
  if (changed.length === 0) return current;
  if (new TextEncoder().encode(JSON.stringify(next)).length > MUSEUM_LIMITS.bytes - 1_000) {
    throw new InvalidMuseumSettingsError([{ path: "levels", message: "the texts are too long altogether" }]);
  }
  const saved = await store.museum.save(next, current.version, now.toISOString(), actor.admin.email, {
    audit: [
      actorEntry(actor, "museum-settings-changed", null, {
        version: { from: current.version, to: current.version + 1 },
        changed: changed.slice(0, MAX_NAMED_CHANGES),
        ...(changed.length > MAX_NAMED_CHANGES ? { more: changed.length - MAX_NAMED_CHANGES } : {}),
      }),
    ],
  });
  if (!saved) {
    const stored = await readMuseumSettings(store);
    throw new MuseumSettingsChangedMeanwhileError(stored.version, current.version);
  }
  return saved;
}
