/**
 * The donation page's rules, shared by the server (the form without JavaScript) and the islands:
 * the contribution selection of spec section 3, the amount it stands for, and the donor-form
 * checks of spec section 5. Safe for islands: no zod, no server code, so it stays small.
 *
 * @module
 */
import { MIN_AMOUNT } from "./amounts.ts";
import { isEmail } from "./email.ts";
import type { CurrencyName, Tier } from "./money.ts";

/** One-time or monthly. */
export type Period = "one-time" | "monthly";

/** The contribution selection (spec section 3). */
export interface Selection {
  period: Period;
  /** The chosen tier's id, or `null`. */
  tier: number | null;
  /** Whether 'Other amount' is on. */
  other: boolean;
  /** The other amount as typed (converted to a number only when used). */
  otherAmount: string;
  /** The other amount's currency; dollars by default (spec section 9). */
  otherCurrency: CurrencyName;
  /**
   * "Renew my membership automatically every year" is ticked (issue 27): it counts only for a
   * one-time gift at a tier, online.
   */
  autoRenew: boolean;
}

/** Nothing chosen, one-time. */
export const EMPTY_SELECTION: Selection = {
  period: "one-time",
  tier: null,
  other: false,
  otherAmount: "",
  otherCurrency: "dollars",
  autoRenew: false,
};

/** The loading step before the payment step, in ms (spec section 9). */
export const LOADING_MS = 2000;
/** The payment view clears itself and resets the form after this long, in ms (spec section 9). */
export const PAYMENT_RESET_MS = 60_000;

// The address rules have their own module, so the sign-in form's island can use them without
// this one (and `money.ts` with it).
export { EMAIL_MAX_LENGTH, EMAIL_PATTERN, isEmail } from "./email.ts";

/**
 * The amount a selection stands for among the page's `tiers` (the museum's membership levels,
 * prices in major units): a tier's NIS price in NIS, or the other amount in its currency; `null`
 * when nothing is chosen (or the other amount is empty, or the tier is not among them).
 *
 * @example
 * ```ts
 * amountOf({ ...EMPTY_SELECTION, tier: 2 }, TIERS); // { amount: 100, currency: "nis" }
 * amountOf({ ...EMPTY_SELECTION, other: true, otherAmount: "12.5" }, TIERS); // { amount: 12.5, currency: "dollars" }
 * ```
 */
export function amountOf(
  selection: Selection,
  tiers: readonly Tier[],
): { amount: number; currency: CurrencyName } | null {
  if (selection.other) {
    const text = selection.otherAmount.trim();
    if (text === "") return null;
    return { amount: Number(text), currency: selection.otherCurrency };
  }
  const tier = tiers.find((t) => t.id === selection.tier);
  return tier ? { amount: tier.price.nis, currency: "nis" } : null;
}

/**
 * Whether an amount is refused: missing, not a number, or below the minimum of 1.
 *
 * @example
 * ```ts
 * incorrectAmount(0.5); // true
 * incorrectAmount(1); // false
 * ```
 */
export function incorrectAmount(amount: number | null | undefined): boolean {
  return amount === null || amount === undefined || !Number.isFinite(amount) || amount < MIN_AMOUNT;
}

/** The donor form's fields. */
export interface DonorFields {
  firstName: string;
  lastName: string;
  email: string;
  country: string;
}

/** The donor form's field names, in form order. */
export const DONOR_FIELDS: readonly (keyof DonorFields)[] = ["firstName", "lastName", "email", "country"];

/**
 * The locale key of one field's problem, or `null` when it is fine.
 *
 * @example
 * ```ts
 * fieldError("email", "dana@"); // "form.invalidEmail"
 * ```
 */
export function fieldError(field: keyof DonorFields, value: string): string | null {
  const v = value.trim();
  switch (field) {
    case "firstName":
      return v ? null : "form.enterFirstName";
    case "lastName":
      return v ? null : "form.enterLastName";
    case "email":
      return !v ? "form.enterEmail" : isEmail(v) ? null : "form.invalidEmail";
    case "country":
      return v ? null : "form.enterCountry";
  }
}

/**
 * The locale keys of the donor form's problems, by field; `{}` when the form is fine.
 *
 * @example
 * ```ts
 * formErrors({ firstName: "", lastName: "Levi", email: "x", country: "Israel" });
 * // { firstName: "form.enterFirstName", email: "form.invalidEmail" }
 * ```
 */
export function formErrors(fields: DonorFields): Partial<Record<keyof DonorFields, string>> {
  const errors: Partial<Record<keyof DonorFields, string>> = {};
  for (const field of DONOR_FIELDS) {
    const error = fieldError(field, fields[field] ?? "");
    if (error) errors[field] = error;
  }
  return errors;
}

/**
 * Whether the donor's consent to renew automatically applies to the selection: a one-time gift at a
 * tier, online, with the box ticked.
 *
 * @example
 * ```ts
 * autoRenewApplies({ ...EMPTY_SELECTION, tier: 2, autoRenew: true }, true); // true
 * ```
 */
export function autoRenewApplies(selection: Selection, online: boolean): boolean {
  return online && selection.autoRenew && !selection.other && selection.tier !== null &&
    selection.period === "one-time";
}

/** The no-JavaScript form's `choice` value for a tier: `tier-N` (a level's id, 1..999). */
export const TIER_CHOICE = /^tier-(\d{1,3})$/;

/**
 * Reads a selection from the no-JavaScript form's fields (`period`, `choice` = `tier-N` or
 * `other`, `otherAmount`, `otherCurrency`, `autoRenew`) among the page's `tiers`; unknown values fall back to
 * the defaults.
 *
 * @example
 * ```ts
 * selectionFromForm({ period: "monthly", choice: "tier-3" }, TIERS); // { period: "monthly", tier: 3, other: false, … }
 * ```
 */
export function selectionFromForm(
  form: Record<string, string | undefined>,
  tiers: readonly Tier[],
): Selection {
  const choice = form.choice ?? "";
  const tierId = Number(choice.match(TIER_CHOICE)?.[1]);
  const tier = tiers.some((t) => t.id === tierId) ? tierId : null;
  return {
    period: form.period === "monthly" ? "monthly" : "one-time",
    tier: choice === "other" ? null : tier,
    other: choice === "other",
    otherAmount: (form.otherAmount ?? "").slice(0, 20),
    otherCurrency: form.otherCurrency === "nis" ? "nis" : "dollars",
    autoRenew: form.autoRenew === "on",
  };
}
