/**
 * The museum editor's form (issue 27, item 1) as plain data: the settings read from
 * `GET /api/settings/museum` turned into what the inputs hold (prices in major units, benefits one
 * a line), and back into the change `PUT` takes (minor units: the server checks and decides). The
 * API's refusals in words are `museum_faults.ts`, loaded when one comes. Pure, so it is tested
 * without a browser.
 *
 * @module
 */
import { LANGUAGES } from "@/lib/shared/languages.ts";
import {
  type BrandColours,
  coloursOf,
  type MembershipLevel,
  type MuseumSettings,
  type PerLanguage,
} from "@/lib/shared/museum.ts";

/** Two amounts as typed: major units (shekels, dollars), any decimal separator. */
export interface AmountsForm {
  nis: string;
  dollars: string;
}

/** One level as the form holds it. */
export interface LevelForm {
  /** The level's id, null for a level added in this form. */
  id: number | null;
  /** A key that stays with the level while it moves (new levels have no id yet). */
  key: string;
  name: PerLanguage<string>;
  /** One benefit a line. */
  benefits: PerLanguage<string>;
  price: AmountsForm;
  benefitsValue: AmountsForm;
  termMonths: string;
  cardholders: string;
  /** How many guests a member may bring on a visit (issue 28, the front desk). */
  guests: string;
  /** The percent of a payment Israeli receipts state as a donation (`donationShare`, 0..100). */
  donationShare: string;
  monthly: boolean;
}

/** The whole form, over the version it was read at. */
export interface MuseumForm {
  version: number;
  name: PerLanguage<string>;
  /** As typed (`#rrggbb`). */
  colours: BrandColours;
  levels: LevelForm[];
  /** The donation page's hero texts (its image is uploaded on its own: `MuseumImageField.tsx`). */
  hero: { title: PerLanguage<string>; text: PerLanguage<string>; imageAlt: PerLanguage<string> };
}

const perLanguage = <T>(value: (lang: typeof LANGUAGES[number]) => T) =>
  Object.fromEntries(LANGUAGES.map((lang) => [lang, value(lang)])) as PerLanguage<T>;

/**
 * Minor units shown in major units: `12000` → `"120"`, `3250` → `"32.50"`.
 *
 * @example
 * ```ts
 * majorText(3250); // "32.50"
 * ```
 */
export function majorText(minor: number): string {
  return (minor / 100).toFixed(2).replace(/\.00$/, "");
}

/**
 * What an owner typed in major units, in minor units: exact for up to two decimals (`.` or `,`);
 * more decimals give a fraction of a minor unit and anything else NaN, both of which the server
 * refuses beside the field (the browser decides nothing).
 *
 * @example
 * ```ts
 * minorOf("32,5"); // 3250
 * ```
 */
export function minorOf(typed: string): number {
  const match = /^(\d{1,12})(?:[.,](\d+))?$/.exec(typed.trim());
  if (!match) return NaN;
  const [, whole, fraction = ""] = match;
  if (fraction.length <= 2) return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return Number(`${whole}.${fraction}`) * 100;
}

let newKeys = 0;

function levelForm(level: MembershipLevel): LevelForm {
  return {
    id: level.id,
    key: `level-${level.id}`,
    name: { ...level.name },
    benefits: perLanguage((lang) => level.benefits[lang].join("\n")),
    price: { nis: majorText(level.price.nis), dollars: majorText(level.price.dollars) },
    benefitsValue: {
      nis: majorText(level.benefitsValue.nis),
      dollars: majorText(level.benefitsValue.dollars),
    },
    termMonths: String(level.termMonths),
    cardholders: String(level.cardholders),
    guests: String(level.guests ?? 0),
    donationShare: String(level.donationShare ?? 100),
    monthly: level.monthly,
  };
}

/** The form for settings as read. */
export function formOf(settings: MuseumSettings): MuseumForm {
  return {
    version: settings.version,
    name: { ...settings.identity.name },
    colours: coloursOf(settings),
    levels: settings.levels.map(levelForm),
    hero: {
      title: perLanguage((lang) => settings.hero?.title[lang] ?? ""),
      text: perLanguage((lang) => settings.hero?.text[lang] ?? ""),
      imageAlt: perLanguage((lang) => settings.hero?.imageAlt[lang] ?? ""),
    },
  };
}

/** A new, empty level (12 months, one cardholder, offered monthly). */
export function newLevel(): LevelForm {
  return {
    id: null,
    key: `new-${++newKeys}`,
    name: perLanguage(() => ""),
    benefits: perLanguage(() => ""),
    price: { nis: "", dollars: "" },
    benefitsValue: { nis: "0", dollars: "0" },
    termMonths: "12",
    cardholders: "1",
    guests: "0",
    donationShare: "100",
    monthly: true,
  };
}

/** A count as typed; NaN (sent as null, which the server refuses) when it is not one. */
const countOf = (typed: string) => /^\s*\d{1,6}\s*$/.test(typed) ? Number(typed) : NaN;

const amounts = (form: AmountsForm) => ({ nis: minorOf(form.nis), dollars: minorOf(form.dollars) });

/** The `PUT /api/settings/museum` body for the form (NaN becomes null in JSON). */
export function changeOf(form: MuseumForm) {
  return {
    version: form.version,
    identity: { name: form.name, colours: form.colours },
    hero: form.hero,
    levels: form.levels.map((level) => ({
      ...(level.id === null ? {} : { id: level.id }),
      name: level.name,
      benefits: perLanguage((lang) => level.benefits[lang].split("\n")),
      price: amounts(level.price),
      benefitsValue: amounts(level.benefitsValue),
      termMonths: countOf(level.termMonths),
      cardholders: countOf(level.cardholders),
      guests: countOf(level.guests),
      donationShare: countOf(level.donationShare),
      monthly: level.monthly,
    })),
  };
}

/** What the messages say about the limits. */
export interface FormLimits {
  /** The smallest and largest price, major units. */
  minAmount: number;
  maxAmount: number;
}
