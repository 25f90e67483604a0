/**
 * The museum's own settings as the API answers them (`GET /api/settings/museum`) and the back
 * office's editor will read them: its identity (its name in each language) and its membership
 * levels. Storage keeps the same record (`lib/storage/museum_types.ts` re-exports these types), and
 * `lib/museum/` holds the rules (defaults, checks, the owners' change). Types and tiny pure helpers
 * only, so an island may import them.
 *
 * Amounts are integers in minor units (agorot, cents), in the API's currency names (`nis`,
 * `dollars`).
 *
 * @module
 */
import type { Lang } from "./languages.ts";
import type { Tier } from "./money.ts";

/**
 * How long each text may be, and how many lines of benefits a level has per language (the API's
 * schemas check them; the editor's messages name them).
 */
export const TEXT_LIMITS = { museumName: 80, levelName: 60, benefit: 120, benefits: 8, levels: 12 } as const;

/** A value in every language of the site. */
export type PerLanguage<T> = Record<Lang, T>;

/** An amount in both currencies, in minor units. */
export interface BothCurrencies {
  nis: number;
  dollars: number;
}

/** One membership level (issue 27): what a tier card shows and what a gift at it buys. */
export interface MembershipLevel {
  /** Stable, 1..999; a removed level's id is never given to another (see `lastLevelId`). */
  id: number;
  name: PerLanguage<string>;
  /** Its benefits, one line each, per language. */
  benefits: PerLanguage<string[]>;
  /** Its price in each currency, minor units (a monthly gift at it pays this each month). */
  price: BothCurrencies;
  /** How long a one-time gift at it makes (or extends) a membership, in months (12 by default). */
  termMonths: number;
  /** How many people its cards cover (a household level covers more than one). */
  cardholders: number;
  /**
   * How many guests a member at it may bring on a visit, 0..20 (the front desk shows it, issue 28);
   * absent in settings saved before it: {@link guestsOf} answers 0.
   */
  guests?: number;
  /** The fair market value of its benefits, minor units: what US receipts state as goods or services. */
  benefitsValue: BothCurrencies;
  /** Whether the donation page offers it as a monthly gift too. */
  monthly: boolean;
  /**
   * What share of a payment at it is a donation, percent 0..100 (Israeli receipts state that share
   * as the donation, `lib/receipts/membership.ts`); absent: 100.
   */
  donationShare?: number;
}

/**
 * The museum's two brand colours (`#rrggbb`), drawn as CSS custom properties over the stylesheet's:
 * `brand` (headings, links, the header's current language; white text on it, and text itself on the
 * page's background) and `accent` (the donate button, white text on it; focus rings).
 */
export interface BrandColours {
  brand: string;
  accent: string;
}

/** Today's look (`static/styles.css`), which a museum keeps until an owner sets its own. */
export const DEFAULT_COLOURS: Readonly<BrandColours> = { brand: "#1f3a5f", accent: "#b5531c" };

/**
 * The colours each brand colour is drawn with, light ones: its contrast with each must be at least
 * `MIN_TEXT_CONTRAST` (`colours.ts`). White text on both; the brand colour as text on the page's
 * paper and on the back office's pale blue.
 */
export const DRAWN_WITH: Readonly<Record<keyof BrandColours, readonly string[]>> = {
  brand: ["#ffffff", "#fbf8f2", "#eef2f7"],
  accent: ["#ffffff"],
};

/** Who the museum is. */
export interface MuseumIdentity {
  /** Its name, per language (the header and the welcome text). */
  name: PerLanguage<string>;
  /** Its brand colours; absent in a record saved before they existed ({@link DEFAULT_COLOURS}). */
  colours?: BrandColours;
}

/** The museum's settings, one record per install, changed only by owners. */
export interface MuseumSettings {
  /**
   * Bumped by every save; 0 for a fresh install's defaults, never saved. An owner's change is
   * written only over the version it was made from.
   */
  version: number;
  identity: MuseumIdentity;
  /** In the order the donation page shows them. */
  levels: MembershipLevel[];
  /** The highest level id ever given. */
  lastLevelId: number;
  /** When the settings were last saved (ISO 8601), null for the defaults. */
  updatedAt: string | null;
  /** The email of the owner who saved them last, null for the defaults. */
  updatedBy: string | null;
}

/**
 * The museum's brand colours: its own, else today's look.
 *
 * @example
 * ```ts
 * coloursOf(settings).brand; // "#1f3a5f"
 * ```
 */
export function coloursOf(settings: Pick<MuseumSettings, "identity"> | undefined): BrandColours {
  return settings?.identity.colours ?? { ...DEFAULT_COLOURS };
}

/**
 * The level with `id`, or undefined.
 *
 * @example
 * ```ts
 * levelById(settings.levels, 2)?.price.nis; // 10000
 * ```
 */
export function levelById(levels: readonly MembershipLevel[], id: number | null | undefined) {
  return id === null || id === undefined ? undefined : levels.find((level) => level.id === id);
}

/**
 * The levels as the donation page prices them (`Tier`: major units), for the selection's rules.
 *
 * @example
 * ```ts
 * tiersOf(settings.levels)[0]; // { id: 1, price: { nis: 20, dollars: 5 } }
 * ```
 */
export function tiersOf(levels: readonly MembershipLevel[]): Tier[] {
  return levels.map((level) => ({
    id: level.id,
    price: { nis: level.price.nis / 100, dollars: level.price.dollars / 100 },
  }));
}

/**
 * How many guests a level admits on a visit (0 for a level saved before levels said).
 *
 * @example
 * ```ts
 * guestsOf({ ...level, guests: 2 }); // 2
 * ```
 */
export function guestsOf(level: Pick<MembershipLevel, "guests"> | null | undefined): number {
  return level?.guests ?? 0;
}
