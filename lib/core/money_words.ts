/**
 * An amount of money in words, in the receipt's language: what Israeli receipts customarily print
 * beside the figures ("one hundred eighty shekels"). The numbers come from `n2words` (one module per
 * language, no dependencies); the currency's nouns, their plural forms and the word joining the
 * two parts come from `locales/` (`receipt.words`), chosen by i18next's plural rules (Russian has
 * four forms, Hebrew a dual).
 *
 * @module
 */

import { toCardinal as en } from "n2words/en-US";
import { toCardinal as es } from "n2words/es-ES";
import { toCardinal as he } from "n2words/he-IL";
import { toCardinal as pt } from "n2words/pt-PT";
import { toCardinal as ru } from "n2words/ru-RU";
import { translator } from "./i18n.ts";
import type { Lang } from "@/lib/shared/languages.ts";

/** Brazilian spellings where n2words writes only the European ones (the site's Portuguese is Brazilian). */
const PT_BR: [string, string][] = [["dezasseis", "dezesseis"], ["dezassete", "dezessete"], [
  "dezanove",
  "dezenove",
]];

/** `words` with its last word `from` replaced by `to` (no regular expressions: see input_patterns_test). */
function lastWord(words: string, from: string, to: string): string {
  return words === from || words.endsWith(` ${from}`) ? words.slice(0, -from.length) + to : words;
}

/** `n` in words; `feminine` for a feminine noun (Russian agorot), where the language cares. */
function cardinal(lang: Lang, n: number, feminine: boolean): string {
  switch (lang) {
    case "he":
      return he(n);
    case "ru":
      return ru(n, { gender: feminine ? "feminine" : "masculine" });
    case "es": {
      // Before a masculine noun "uno" is shortened: "un dólar", "veintiún dólares".
      const words = es(n, { gender: feminine ? "feminine" : "masculine" });
      return feminine ? words : lastWord(lastWord(words, "veintiuno", "veintiún"), "uno", "un");
    }
    case "pt": {
      const words = PT_BR.reduce((text, [from, to]) => text.replaceAll(from, to), pt(n));
      // n2words has no feminine for Portuguese; below a hundred (agorot) only one and two change.
      const female: Record<string, string> = { um: "uma", dois: "duas" };
      return feminine ? words.split(" ").map((w) => female[w] ?? w).join(" ") : words;
    }
    default:
      return en(n);
  }
}

/** Which minor unit's noun is feminine in which language (the agora is, wherever gender shows). */
const FEMININE_MINOR: Partial<Record<Lang, Set<string>>> = {
  he: new Set(["ILS"]),
  ru: new Set(["ILS"]),
  es: new Set(["ILS"]),
  pt: new Set(["ILS"]),
};

/**
 * Hebrew: n2words counts in the feminine (as one counts aloud), but shekels, dollars and cents are
 * masculine: the units and teens of the last group (after any thousand or million word) take
 * their masculine forms, and two before a noun is the construct form.
 */
const HE_MASCULINE: Record<string, string> = {
  "אחת": "אחד",
  "שתים": "שניים",
  "שתיים": "שניים",
  "שלש": "שלושה",
  "שלוש": "שלושה",
  "ארבע": "ארבעה",
  "חמש": "חמישה",
  "שש": "שישה",
  "שבע": "שבעה",
  "שמונה": "שמונה",
  "תשע": "תשעה",
  "עשר": "עשרה",
  "עשרה": "עשר",
};
const HE_GROUPS = new Set(["אלף", "אלפים", "אלפי", "מיליון", "מיליונים", "מיליארד"]);
/** A count before these is a multiplier ("חמש מאות"), which keeps its form. */
const HE_MULTIPLIERS = new Set(["מאות", "אלף", "אלפים", "מיליון", "מיליונים", "מיליארד"]);
/** Whether a token (maybe with the conjunction ו before it) is one of `words`. */
const isHe = (words: Set<string>, token: string) =>
  words.has(token) || (token.startsWith("ו") && words.has(token.slice(1)));

function hebrewMasculine(words: string): string {
  const tokens = words.split(" ");
  let from = 0;
  tokens.forEach((token, i) => {
    if (isHe(HE_GROUPS, token)) from = i + 1;
  });
  for (let i = from; i < tokens.length; i++) {
    const vav = tokens[i].startsWith("ו") && HE_MASCULINE[tokens[i].slice(1)] ? "ו" : "";
    const bare = tokens[i].slice(vav.length);
    if (HE_MASCULINE[bare] && !isHe(HE_MULTIPLIERS, tokens[i + 1] ?? "")) {
      tokens[i] = vav + HE_MASCULINE[bare];
    }
  }
  return tokens.join(" ");
}

/** The number's words as they stand before (or after, for one) the currency's noun. */
function numberWords(lang: Lang, n: number, feminine: boolean): string {
  if (lang !== "he") return cardinal(lang, n, feminine);
  if (n === 2) return feminine ? "שתי" : "שני";
  return feminine ? cardinal(lang, n, true) : hebrewMasculine(cardinal(lang, n, false));
}

// Made once per language: making one costs far more than using it.
// Bound: one entry per site language (5).
const plurals = new Map<Lang, Intl.PluralRules>();
const pluralRules = (lang: Lang) => {
  let rules = plurals.get(lang);
  if (!rules) plurals.set(lang, rules = new Intl.PluralRules(lang));
  return rules;
};

/** `n` of `unit` (`ILS`, `ILSMinor`, ...) in words, the noun in its plural form for `n`. */
function counted(lang: Lang, n: number, unit: string, feminine: boolean): string {
  const t = translator(lang);
  const form = pluralRules(lang).select(n);
  const noun = t(`receipt.words.${unit}.${form === "zero" ? "other" : form}`);
  return t(n === 1 ? "receipt.words.amountOne" : "receipt.words.amount", {
    number: numberWords(lang, n, feminine),
    unit: noun,
  });
}

/**
 * `amount` (minor units) of `currency` in words, e.g. `one hundred eighty shekels and fifty agorot`.
 *
 * @example
 * ```ts
 * amountInWords(18_050, "ILS", "en"); // "one hundred eighty shekels and fifty agorot"
 * ```
 */
export function amountInWords(amount: number, currency: "ILS" | "USD", lang: Lang): string {
  if (!Number.isSafeInteger(amount) || amount < 0) {
    throw new RangeError(`amount must be minor units: ${amount}`);
  }
  const major = Math.floor(amount / 100);
  const minor = amount % 100;
  const majorText = counted(lang, major, currency, false);
  if (minor === 0) return majorText;
  const minorText = counted(lang, minor, `${currency}Minor`, FEMININE_MINOR[lang]?.has(currency) ?? false);
  return major === 0
    ? minorText
    : translator(lang)("receipt.words.join", { major: majorText, minor: minorText });
}
