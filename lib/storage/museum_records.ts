/**
 * The museum's settings as stored, the same on both backends: every field checked and copied in a
 * fixed order, so Deno KV and PostgreSQL keep the same record. These are the limits no backend may
 * exceed (a RangeError); `lib/museum/` checks an owner's change first with messages a person reads.
 *
 * @module
 */
import { LANGUAGES } from "@/lib/shared/languages.ts";
import { checkInteger, isoInstant } from "./records.ts";
import type {
  BothCurrencies,
  MembershipLevel,
  MuseumSettings,
  MuseumSettingsInput,
  PerLanguage,
} from "./museum_types.ts";

/** The storage limits of the settings (Deno KV holds a value of at most 64 KiB). */
export const MUSEUM_LIMITS = {
  levels: 12,
  levelId: 999,
  text: 200,
  benefits: 12,
  termMonths: 120,
  cardholders: 20,
  bytes: 48_000,
} as const;

function text(value: unknown, what: string): string {
  if (typeof value !== "string" || value.length > MUSEUM_LIMITS.text) {
    throw new RangeError(`${what} must be a string of at most ${MUSEUM_LIMITS.text} characters`);
  }
  return value;
}

function perLanguage<T>(value: unknown, what: string, each: (v: unknown, what: string) => T): PerLanguage<T> {
  if (value === null || typeof value !== "object") throw new RangeError(`${what} must name every language`);
  const source = value as Record<string, unknown>;
  return Object.fromEntries(
    LANGUAGES.map((lang) => [lang, each(source[lang], `${what}.${lang}`)]),
  ) as PerLanguage<
    T
  >;
}

function lines(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || value.length > MUSEUM_LIMITS.benefits) {
    throw new RangeError(`${what} must be a list of at most ${MUSEUM_LIMITS.benefits} lines`);
  }
  return value.map((line, i) => text(line, `${what}[${i}]`));
}

function amounts(value: BothCurrencies, what: string): BothCurrencies {
  if (value === null || typeof value !== "object") throw new RangeError(`${what} must have nis and dollars`);
  return {
    nis: checkInteger(value.nis, `${what}.nis`, 0),
    dollars: checkInteger(value.dollars, `${what}.dollars`, 0),
  };
}

function range(value: number, what: string, min: number, max: number): number {
  checkInteger(value, what, min);
  if (value > max) throw new RangeError(`${what} must be at most ${max}: ${value}`);
  return value;
}

/** The brand colours as stored: both `#rrggbb`, lower case. */
function colours(value: unknown): { brand: string; accent: string } {
  const source = (value ?? {}) as Record<string, unknown>;
  const hex = (v: unknown, what: string) => {
    if (typeof v !== "string" || !/^#[0-9a-f]{6}$/.test(v)) throw new RangeError(`${what} must be #rrggbb`);
    return v;
  };
  return {
    brand: hex(source.brand, "identity.colours.brand"),
    accent: hex(source.accent, "identity.colours.accent"),
  };
}

/** One level as stored. */
function canonicalLevel(level: MembershipLevel, i: number): MembershipLevel {
  const what = `levels[${i}]`;
  if (typeof level.monthly !== "boolean") throw new RangeError(`${what}.monthly must be true or false`);
  return {
    id: range(level.id, `${what}.id`, 1, MUSEUM_LIMITS.levelId),
    name: perLanguage(level.name, `${what}.name`, text),
    benefits: perLanguage(level.benefits, `${what}.benefits`, lines),
    price: amounts(level.price, `${what}.price`),
    termMonths: range(level.termMonths, `${what}.termMonths`, 1, MUSEUM_LIMITS.termMonths),
    cardholders: range(level.cardholders, `${what}.cardholders`, 1, MUSEUM_LIMITS.cardholders),
    benefitsValue: amounts(level.benefitsValue, `${what}.benefitsValue`),
    monthly: level.monthly,
    ...(level.guests === undefined ? {} : { guests: range(level.guests, `${what}.guests`, 0, 20) }),
    // Absent in settings saved before it: 100, the whole payment a donation.
    ...(level.donationShare === undefined ? {} : {
      donationShare: range(level.donationShare, `${what}.donationShare`, 0, 100),
    }),
  };
}

/**
 * The record stored for `input` as `version`, saved at `at` by `by`: checked (RangeError) and copied
 * to exactly the stored fields.
 *
 * @example
 * ```ts
 * const stored = canonicalMuseumSettings(input, 1, new Date().toISOString(), "owner@museum.org");
 * ```
 */
export function canonicalMuseumSettings(
  input: MuseumSettingsInput,
  version: number,
  at: string,
  by: string,
): MuseumSettings {
  if (!Array.isArray(input.levels) || input.levels.length > MUSEUM_LIMITS.levels) {
    throw new RangeError(`levels must be a list of at most ${MUSEUM_LIMITS.levels}`);
  }
  const levels = input.levels.map(canonicalLevel);
  const lastLevelId = range(input.lastLevelId, "lastLevelId", 0, MUSEUM_LIMITS.levelId);
  const ids = new Set(levels.map((level) => level.id));
  if (ids.size !== levels.length) throw new RangeError("level ids must be unique");
  if (levels.some((level) => level.id > lastLevelId)) throw new RangeError("a level id is above lastLevelId");
  const settings: MuseumSettings = {
    version: checkInteger(version, "version", 1),
    identity: {
      name: perLanguage(input.identity?.name, "identity.name", text),
      // Only when given: a record saved before colours existed stays as it was (today's look).
      ...(input.identity?.colours === undefined ? {} : { colours: colours(input.identity.colours) }),
    },
    levels,
    lastLevelId,
    updatedAt: isoInstant(at, "at"),
    updatedBy: text(by, "by"),
  };
  if (new TextEncoder().encode(JSON.stringify(settings)).length > MUSEUM_LIMITS.bytes) {
    throw new RangeError(`the settings are larger than ${MUSEUM_LIMITS.bytes} bytes`);
  }
  return settings;
}
