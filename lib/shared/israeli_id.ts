/**
 * The Israeli ID number (מספר זהות, ת.ז.) a donor gives for a Section 46 tax receipt: nine digits,
 * the last a check digit (the Luhn-like rule of the Population Registry: digits weighted 1, 2, 1,
 * 2, …, a product over 9 has its digits summed, the total is a multiple of 10). Older numbers are
 * written without their leading zeros, so fewer digits are left-padded to nine. Donors often type
 * it with spaces or a dash before the check digit; those are dropped.
 *
 * Shared by the server (the API's schema, the no-JavaScript form) and the donation island, so it
 * uses no regular expression and imports no code: a loop over at most {@link ISRAELI_ID_MAX_INPUT}
 * characters, checked first, is linear on any input. The donation form's part (a box "I want an
 * Israeli tax receipt" and the ID field it asks for) is here too: its fields, how the no-JavaScript
 * form's are read, and the one rule both forms check.
 *
 * @module
 */
import type { CurrencyName } from "./money.ts";

/** The longest text read as an ID number (nine digits with room for spaces and dashes). */
export const ISRAELI_ID_MAX_INPUT = 20;

/** Why a typed ID number is refused: a locale key of `taxReceipt`. */
export type IsraeliIdProblem = "taxReceipt.enterId" | "taxReceipt.idFormat" | "taxReceipt.idCheckDigit";

/**
 * The ID number's nine digits, or why it is refused: `enterId` when empty, `idFormat` when it is
 * too long or holds anything but digits, spaces and dashes (or more than nine digits, or only
 * zeros), `idCheckDigit` when the check digit is wrong.
 *
 * @example
 * ```ts
 * parseIsraeliId("12345678-2"); // { id: "123456782" }
 * parseIsraeliId("5"); // { problem: "taxReceipt.idCheckDigit" }
 * parseIsraeliId("18"); // { id: "000000018" }
 * ```
 */
export function parseIsraeliId(text: string): { id: string } | { problem: IsraeliIdProblem } {
  if (text.length > ISRAELI_ID_MAX_INPUT) return { problem: "taxReceipt.idFormat" };
  let digits = "";
  for (const ch of text) {
    if (ch >= "0" && ch <= "9") digits += ch;
    else if (ch !== " " && ch !== "-") return { problem: "taxReceipt.idFormat" };
  }
  if (digits === "") return { problem: "taxReceipt.enterId" };
  if (digits.length > 9) return { problem: "taxReceipt.idFormat" };
  const id = digits.padStart(9, "0");
  if (id === "000000000") return { problem: "taxReceipt.idFormat" };
  return hasValidCheckDigit(id) ? { id } : { problem: "taxReceipt.idCheckDigit" };
}

/**
 * Whether nine digits pass the check-digit rule.
 *
 * @example
 * ```ts
 * hasValidCheckDigit("123456782"); // true
 * hasValidCheckDigit("123456789"); // false
 * ```
 */
export function hasValidCheckDigit(nineDigits: string): boolean {
  if (nineDigits.length !== 9) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    const digit = nineDigits.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return false;
    const product = digit * (i % 2 === 0 ? 1 : 2);
    sum += product > 9 ? product - 9 : product;
  }
  return sum % 10 === 0;
}

/**
 * The locale key of a typed ID number's problem, or `null` when it is fine (the island's on-blur
 * check and the no-JavaScript form's).
 *
 * @example
 * ```ts
 * israeliIdError(""); // "taxReceipt.enterId"
 * israeliIdError("123456782"); // null
 * ```
 */
export function israeliIdError(text: string): IsraeliIdProblem | null {
  const parsed = parseIsraeliId(text.trim());
  return "problem" in parsed ? parsed.problem : null;
}

/**
 * An ID number as it may be shown (back office, API answers, logs never): all but its last three
 * digits hidden.
 *
 * @example
 * ```ts
 * maskIsraeliId("123456782"); // "******782"
 * ```
 */
export function maskIsraeliId(id: string): string {
  return "*".repeat(Math.max(0, id.length - 3)) + id.slice(-3);
}

/** The donation form's tax-receipt part: the box, and the ID number as typed. */
export interface TaxReceiptFields {
  /** Whether the donor ticked "I want an Israeli tax receipt (Section 46)". */
  taxReceipt: boolean;
  /** The ID number as typed (checked only when the box is ticked). */
  israeliId: string;
}

/** The part's fields on a fresh form: box unticked, nothing typed. */
export const NO_TAX_RECEIPT: TaxReceiptFields = { taxReceipt: false, israeliId: "" };

/** The locale key of a problem of the tax-receipt part (`taxReceipt.*`). */
export type TaxReceiptProblem = IsraeliIdProblem | "taxReceipt.onlyShekels";

/**
 * Whether the form offers an Israeli receipt for the chosen gift's currency: for gifts in
 * shekels, and while nothing is chosen yet (`null`); not for dollars.
 *
 * @example
 * ```ts
 * taxReceiptOffered("nis"); // true
 * taxReceiptOffered("dollars"); // false
 * ```
 */
export function taxReceiptOffered(currency: CurrencyName | null): boolean {
  return currency !== "dollars";
}

/**
 * The problems of the tax-receipt part, by field, for a gift in `currency`: none when the box is
 * unticked; the box's own when the gift is in dollars (an Israeli receipt is for shekels); else the
 * ID number's, if any.
 *
 * @example
 * ```ts
 * taxReceiptErrors({ taxReceipt: true, israeliId: "123456789" }, "nis"); // { israeliId: "taxReceipt.idCheckDigit" }
 * taxReceiptErrors({ taxReceipt: true, israeliId: "123456782" }, "dollars"); // { taxReceipt: "taxReceipt.onlyShekels" }
 * ```
 */
export function taxReceiptErrors(
  fields: TaxReceiptFields,
  currency: CurrencyName | null,
): Partial<Record<keyof TaxReceiptFields, TaxReceiptProblem>> {
  if (!fields.taxReceipt) return {};
  if (!taxReceiptOffered(currency)) return { taxReceipt: "taxReceipt.onlyShekels" };
  const problem = israeliIdError(fields.israeliId);
  return problem ? { israeliId: problem } : {};
}

/**
 * The tax-receipt part as the no-JavaScript form sent it (`taxReceipt=on`, `israeliId`); the ID
 * is cut to what its field may hold, so a huge value costs nothing.
 *
 * @example
 * ```ts
 * taxReceiptFromForm({ taxReceipt: "on", israeliId: "123456782" }); // { taxReceipt: true, israeliId: "123456782" }
 * ```
 */
export function taxReceiptFromForm(form: Record<string, string | undefined>): TaxReceiptFields {
  return {
    taxReceipt: form.taxReceipt === "on",
    israeliId: (form.israeliId ?? "").slice(0, ISRAELI_ID_MAX_INPUT + 1),
  };
}

/**
 * The ID number to send with the donor (`POST /api/user`, `israeliId`), or `undefined` when the
 * donor asked for no receipt or the gift cannot have one.
 *
 * @example
 * ```ts
 * israeliIdToSend({ taxReceipt: true, israeliId: " 123456782 " }, "nis"); // "123456782"
 * ```
 */
export function israeliIdToSend(fields: TaxReceiptFields, currency: CurrencyName | null): string | undefined {
  return fields.taxReceipt && taxReceiptOffered(currency) ? fields.israeliId.trim() : undefined;
}
