/**
 * What a fresh install shows before an owner saves the museum's settings: the spec's four tiers at
 * its prices (section 9, `TIERS`), named and described in every language from `locales/`
 * (`museumDefaults.levels`: Friend, Supporter, Family, Patron and example benefits), a 12-month term,
 * and the museum's name as the locale files have it (`welcome.museumTitle`). Version 0: nothing is
 * stored until an owner saves.
 *
 * @module
 */
import { translator } from "@/lib/core/i18n.ts";
import { LANGUAGES } from "@/lib/shared/languages.ts";
import { TIERS } from "@/lib/shared/money.ts";
import {
  DEFAULT_COLOURS,
  type MembershipLevel,
  type MuseumSettings,
  type PerLanguage,
} from "@/lib/shared/museum.ts";

/** A level's term unless an owner sets another, in months. */
export const DEFAULT_TERM_MONTHS = 12;

/** How many people each default level's cards cover (the third is a household's). */
const CARDHOLDERS = [1, 2, 4, 4];
/** The guests each default level admits at the front desk: none for the first, more for the higher. */
const GUESTS = [0, 1, 2, 4];

const perLanguage = <T>(value: (t: ReturnType<typeof translator>) => T): PerLanguage<T> =>
  Object.fromEntries(LANGUAGES.map((lang) => [lang, value(translator(lang))])) as PerLanguage<T>;

function build(): MuseumSettings {
  const levels: MembershipLevel[] = TIERS.map((tier, i) => ({
    id: tier.id,
    name: perLanguage((t) => t(`museumDefaults.levels.${tier.id}.name`)),
    benefits: perLanguage((
      t,
    ) => [...t(`museumDefaults.levels.${tier.id}.benefits`, { returnObjects: true }) as string[]]),
    price: { nis: tier.price.nis * 100, dollars: tier.price.dollars * 100 },
    termMonths: DEFAULT_TERM_MONTHS,
    cardholders: CARDHOLDERS[i] ?? 1,
    guests: GUESTS[i] ?? 0,
    // Nothing the museum has not decided with its accountant (README: memberships).
    benefitsValue: { nis: 0, dollars: 0 },
    monthly: true,
    donationShare: 100,
  }));
  return {
    version: 0,
    identity: { name: perLanguage((t) => t("welcome.museumTitle")), colours: { ...DEFAULT_COLOURS } },
    levels,
    lastLevelId: Math.max(0, ...levels.map((level) => level.id)),
    updatedAt: null,
    updatedBy: null,
  };
}

let defaults: MuseumSettings | undefined;

/**
 * The settings of a fresh install (made once; a fresh copy for each caller, so none can change
 * another's).
 *
 * @example
 * ```ts
 * defaultMuseumSettings().levels[1].price; // { nis: 10000, dollars: 2500 }
 * ```
 */
export function defaultMuseumSettings(): MuseumSettings {
  defaults ??= build();
  return structuredClone(defaults);
}
