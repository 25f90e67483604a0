/**
 * The sandbox's test cards: which numbers decline and with what status, the checks of its card form,
 * and result fields shaped like a processor's. The card page (`routes/sandbox/pay/`) and the
 * simulated terminal of `sandbox.ts` both follow these rules.
 *
 * Test cards (any future expiry, any 3-digit CVV):
 * - `4000 0000 0000 0XYZ` declines with status `XYZ` (e.g. `4000 0000 0000 0033`: invalid card);
 * - `4000 0566 5566 5556` pays, but the sandbox declines its refunds (`033`, `sandbox_refund.ts`);
 * - `4000 0027 6000 3184` pays, and the sandbox credits its refunds but loses their answers (an
 *   unconfirmed refund, settled later by the reconciliation);
 * - any other Luhn-valid number succeeds with `000`.
 *
 * @module
 */
import type { CurrencyCode } from "@/lib/shared/money.ts";
import type { ResultData } from "@/lib/storage/types.ts";

/**
 * The status a sandbox test card `4000 0000 0000 0XYZ` answers (`XYZ`; `000` approves), or null
 * for any other number.
 *
 * @example
 * ```ts
 * declineCodeOf("4000 0000 0000 0033"); // "033"
 * ```
 */
export function declineCodeOf(cardNumber: string): string | null {
  const digits = cardNumber.replace(/[\s-]/g, "");
  return /^4000000000000\d{3}$/.test(digits) ? digits.slice(13) : null;
}

/**
 * Whether a card number passes the Luhn check (13 to 19 digits).
 *
 * @example
 * ```ts
 * luhnValid("4580 0000 0000 0000"); // true
 * ```
 */
export function luhnValid(cardNumber: string): boolean {
  const digits = cardNumber.replace(/[\s-]/g, "");
  if (!/^\d{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** Masks a card number the way processors do: first six, stars, last four. */
export function maskCard(cardNumber: string): string {
  const digits = cardNumber.replace(/\D/g, "");
  return `${digits.slice(0, 6)}${"*".repeat(Math.max(0, digits.length - 10))}${digits.slice(-4)}`;
}

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");

/** Result fields like a processor's, for a card and amount. */
export function sandboxResultData(
  card: string,
  amount: number,
  currency: CurrencyCode,
  code: string,
): ResultData {
  return {
    CreditCardNumber: maskCard(card),
    CreditType: "1",
    DebitTotal: String(amount),
    DebitCurrency: currency,
    VoucherId: `${digits(2)}-${digits(3)}-${digits(3)}`,
    ShvaResult: code,
    DebitApproveNumber: code === "000" ? digits(7) : null,
  };
}

/** What the sandbox's card form sends. */
export interface CardSubmission {
  cardNumber: string;
  expiry: string;
  cvv: string;
  idNumber: string;
}

/**
 * An expiry `MM/YY`, `MMYY` or `MM / YY`. The spaces around the slash are one run when there is no
 * slash (`\s*\/?\s*` let two runs share them: quadratic on `12` + spaces + `x`).
 */
export const EXPIRY = /^(\d{2})\s*(?:\/\s*)?(\d{2})$/;

/** Field problems of a card submission, as locale keys of `sandbox.errors.*`; empty when fine. */
export function cardProblems(card: CardSubmission, now: Date = new Date()): Record<string, string> {
  const problems: Record<string, string> = {};
  // Decline test cards need not pass the Luhn check; every other number must.
  if (declineCodeOf(card.cardNumber) === null && !luhnValid(card.cardNumber)) {
    problems.cardNumber = "cardNumber";
  }
  const m = card.expiry.trim().match(EXPIRY);
  const month = m ? Number(m[1]) : 0;
  const year = m ? 2000 + Number(m[2]) : 0;
  const endOfMonth = new Date(Date.UTC(year, month, 1));
  if (!m || month < 1 || month > 12 || endOfMonth <= now) problems.expiry = "expiry";
  if (!/^\d{3,4}$/.test(card.cvv.trim())) problems.cvv = "cvv";
  if (!/^\d{5,9}$/.test(card.idNumber.trim())) problems.idNumber = "idNumber";
  return problems;
}
