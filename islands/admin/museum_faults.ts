/**
 * The museum editor's refusals in words (issue 27, item 1): the API's field errors
 * (`levels.1.price.nis`, …) turned into the input they belong beside and a translated message, and
 * an image upload's refusal. Loaded when the server refuses a change (issue 29: the settings
 * section ships without it). Pure, so it is tested without a browser.
 *
 * @module
 */
import { contrast, HEX_COLOUR } from "@/lib/shared/colours.ts";
import { type BrandColours, DRAWN_WITH, IMAGE_LIMITS, TEXT_LIMITS } from "@/lib/shared/museum.ts";
import type { Translate } from "@/islands/shared/texts.ts";
import type { FormLimits } from "./museum_form.ts";

/**
 * Field errors by the id of the input they belong beside (`level-1-price-nis`, `museum-name-he`,
 * `levels` for the list as a whole), each translated. The API's own English is not shown: the
 * field's kind decides the message.
 *
 * @example
 * ```ts
 * fieldErrors([{ path: "levels.1.price.nis", message: "…" }], t, limits); // { "level-1-price-nis": "…" }
 * ```
 */
export function fieldErrors(
  errors: readonly { path: string; message: string }[],
  t: Translate,
  limits: FormLimits,
  colours?: BrandColours,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { path } of errors) {
    const [id, message] = placed(path.split("."), t, limits, colours);
    out[id] ??= message;
  }
  return out;
}

/**
 * The worst contrast of a brand colour with the colours it is drawn with (the server's rule, shown
 * in the message), or null when it is not a colour at all.
 *
 * @example
 * ```ts
 * worstContrast("brand", "#9fb3c8"); // 1.91
 * ```
 */
export function worstContrast(which: keyof BrandColours, typed: string): number | null {
  const hex = typed.trim().toLowerCase();
  if (!HEX_COLOUR.test(hex)) return null;
  return Math.min(...DRAWN_WITH[which].map((other) => contrast(hex, other)));
}

function placed(parts: string[], t: Translate, limits: FormLimits, colours?: BrandColours): [string, string] {
  if (parts[0] === "identity" && parts[1] === "colours" && (parts[2] === "brand" || parts[2] === "accent")) {
    const ratio = colours ? worstContrast(parts[2], colours[parts[2]]) : null;
    return [
      `museum-colour-${parts[2]}`,
      ratio === null
        ? t("museumEditor.errors.colour")
        : t("museumEditor.errors.contrast", { ratio: ratio.toFixed(2) }),
    ];
  }
  if (parts[0] === "identity" && parts[1] === "name" && parts[2]) {
    return [`museum-name-${parts[2]}`, t("museumEditor.errors.name", { max: TEXT_LIMITS.museumName })];
  }
  if (parts[0] === "hero" && parts[2]) {
    const field = parts[1] === "title" ? "title" : parts[1] === "text" ? "text" : "imageAlt";
    const max =
      { title: TEXT_LIMITS.heroTitle, text: TEXT_LIMITS.heroText, imageAlt: TEXT_LIMITS.imageAlt }[field];
    return [`hero-${field}-${parts[2]}`, t(`museumHero.errors.${field}`, { max })];
  }
  if (parts[0] !== "levels" || parts[1] === undefined || !/^\d+$/.test(parts[1])) {
    return ["levels", t("museumEditor.errors.levels", { count: TEXT_LIMITS.levels })];
  }
  const at = `level-${parts[1]}`;
  const [field, sub] = parts.slice(2);
  switch (field) {
    case "name":
      return [`${at}-name-${sub}`, t("museumEditor.errors.name", { max: TEXT_LIMITS.levelName })];
    case "benefits":
      return [
        `${at}-benefits-${sub}`,
        t("museumEditor.errors.benefits", { count: TEXT_LIMITS.benefits, max: TEXT_LIMITS.benefit }),
      ];
    case "price":
      return [
        `${at}-price-${sub}`,
        t("museumEditor.errors.price", { min: limits.minAmount, max: limits.maxAmount }),
      ];
    case "benefitsValue":
      return [`${at}-benefitsValue-${sub}`, t("museumEditor.errors.benefitsValue")];
    case "termMonths":
      return [`${at}-termMonths`, t("museumEditor.errors.termMonths")];
    case "cardholders":
      return [`${at}-cardholders`, t("museumEditor.errors.cardholders")];
    case "guests":
      return [`${at}-guests`, t("frontDesk.levelGuestsError")];
    case "donationShare":
      return [`${at}-donationShare`, t("museumEditor.errors.donationShare")];
    case "id":
      return [at, t("museumEditor.errors.levelGone")];
    default:
      return [at, t("museumEditor.errors.level")];
  }
}

/**
 * The translated reason an upload was refused, from the API's answer: its status and the message of
 * its `file` error (`lib/museum/images.ts` words each reason its own way).
 *
 * @example
 * ```ts
 * imageFault(400, "the SVG contains a script, which is not allowed", t); // "The SVG contains a script…"
 * ```
 */
export function imageFault(status: number, message: string | undefined, t: Translate): string {
  const reasons: [RegExp, string][] = [
    [/larger than/, "tooLarge"],
    [/contains a script/, "script"],
    [/DOCTYPE|entities/, "entities"],
    [/well-formed SVG/, "svgInvalid"],
    [/pixels/, "pixels"],
    [/not a (readable )?PNG|not a readable/, "notImage"],
    [/must be/, "type"],
  ];
  if (status === 413) return t("museumEditor.imageErrors.tooLarge", { kb: IMAGE_LIMITS.kilobytes });
  const found = reasons.find(([pattern]) => pattern.test(message ?? ""));
  return t(`museumEditor.imageErrors.${found ? found[1] : "other"}`, {
    kb: IMAGE_LIMITS.kilobytes,
    pixels: IMAGE_LIMITS.pixels,
  });
}
