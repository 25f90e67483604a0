/**
 * Receipts as both backends store them: the one canonical form of a new receipt (checked before
 * anything is written), how a number is written, and the bounds of a list. Beside `records.ts`
 * rather than in it, so the receipts concept stays in files of its own.
 *
 * @module
 */

import { checkInteger, isoInstant, normalizeEmail } from "./records.ts";
import type { NewReceipt, Receipt, ReceiptIssuer, ReceiptMembership } from "./receipt_types.ts";

/** Whether `value` is exactly `length` ASCII digits (no regular expressions: see input_patterns_test). */
export const isDigits = (value: unknown, length: number): boolean =>
  typeof value === "string" && value.length === length && [...value].every((c) => c >= "0" && c <= "9");

/** A series: capitals and digits (the issuer's prefix), a dash and a year, e.g. `IL-2026`. */
function isSeries(value: unknown): boolean {
  if (typeof value !== "string" || value.length < 6 || value.length > 45 || value.at(-5) !== "-") {
    return false;
  }
  const prefix = value.slice(0, -5);
  return prefix[0] >= "A" && prefix[0] <= "Z" &&
    [...prefix].every((c) => (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c === "_") &&
    isDigits(value.slice(-4), 4);
}

/** Whether `value` is a day written `YYYY-MM-DD`. */
export const isDay = (value: string): boolean =>
  value.length === 10 && value[4] === "-" && value[7] === "-" &&
  isDigits(value.slice(0, 4), 4) && isDigits(value.slice(5, 7), 2) && isDigits(value.slice(8), 2);

/** A report number: 1 to 100 characters, not blank; RangeError otherwise. */
export function checkReportNumber(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "" || value.length > 100) {
    throw new RangeError("reportNumber must be a non-empty string of at most 100 characters");
  }
  return value;
}

/** The most receipts one list answers. */
export const MAX_RECEIPT_LIST = 1000;

/** `byTransactions`' ids, each once: at most {@link MAX_RECEIPT_LIST}; RangeError beyond. */
export function receiptTransactionIds(ids: readonly string[]): string[] {
  const distinct = [...new Set(ids)];
  if (distinct.length > MAX_RECEIPT_LIST) {
    throw new RangeError(`at most ${MAX_RECEIPT_LIST} transaction ids: ${distinct.length}`);
  }
  return distinct;
}

/** The receipt number of `sequence` in `series`: six digits at least, e.g. `IL-2026-000123`. */
export function receiptNumber(series: string, sequence: number): string {
  return `${series}-${String(sequence).padStart(6, "0")}`;
}

/** The receipt lists' order, newest first: issue time, then number (both descending). */
export const newestReceiptFirst = (a: Receipt, b: Receipt): number =>
  b.issuedAt.localeCompare(a.issuedAt) || b.number.localeCompare(a.number);

/** A list's `limit`: default 100, from 1 to {@link MAX_RECEIPT_LIST}; RangeError otherwise. */
export function receiptListLimit(limit: number | undefined): number {
  const value = limit ?? 100;
  checkInteger(value, "limit", 1);
  if (value > MAX_RECEIPT_LIST) throw new RangeError(`limit must be at most ${MAX_RECEIPT_LIST}: ${value}`);
  return value;
}

const text = (value: unknown, what: string, max = 500): string => {
  if (typeof value !== "string" || value.trim() === "" || value.length > max) {
    throw new RangeError(`${what} must be a non-empty string of at most ${max} characters`);
  }
  return value;
};

const textOrNull = (value: unknown, what: string, max = 100): string | null =>
  value === null || value === undefined ? null : text(value, what, max);

function canonicalIssuer(issuer: ReceiptIssuer): ReceiptIssuer {
  if (issuer.organization !== "museum" && issuer.organization !== "friends") {
    throw new RangeError(`issuer.organization must be museum or friends: ${issuer.organization}`);
  }
  const until = textOrNull(issuer.section46ValidUntil, "issuer.section46ValidUntil");
  if (until !== null && !isDay(until)) {
    throw new RangeError(`issuer.section46ValidUntil must be YYYY-MM-DD: ${until}`);
  }
  return {
    organization: issuer.organization,
    legalName: text(issuer.legalName, "issuer.legalName"),
    address: text(issuer.address, "issuer.address"),
    nonprofitNumber: textOrNull(issuer.nonprofitNumber, "issuer.nonprofitNumber"),
    section46Approval: textOrNull(issuer.section46Approval, "issuer.section46Approval"),
    section46ValidUntil: until,
    ein: textOrNull(issuer.ein, "issuer.ein"),
  };
}

/** A membership level as a receipt keeps it: checked (RangeError), copied to exactly its fields. */
function canonicalReceiptMembership(m: ReceiptMembership, amount: number): ReceiptMembership {
  const names = Object.entries(m.levelName ?? {});
  if (names.length === 0 || names.length > 10) {
    throw new RangeError("membership.levelName must name the level");
  }
  const share = checkInteger(m.donationShare, "membership.donationShare", 0);
  if (share > 100) throw new RangeError(`membership.donationShare must be 0..100: ${share}`);
  const donation = checkInteger(m.donation, "membership.donation", 0);
  if (donation > amount) throw new RangeError("membership.donation is more than the amount");
  return {
    levelId: checkInteger(m.levelId, "membership.levelId", 1),
    levelName: Object.fromEntries(
      names.map(([lang, name]) => [text(lang, "a language", 10), text(name, "a level name", 200)]),
    ),
    benefitsValue: checkInteger(m.benefitsValue, "membership.benefitsValue", 0),
    donationShare: share,
    donation,
  };
}

/** A new receipt as stored: checked (RangeError), instants and the email normalized. */
export function canonicalNewReceipt(r: NewReceipt): NewReceipt {
  if (!isSeries(r.series)) throw new RangeError(`series must look like IL-2026: ${r.series}`);
  if (r.currency !== "ILS" && r.currency !== "USD") throw new RangeError(`currency must be ILS or USD`);
  if (r.paymentMethod !== "card") throw new RangeError(`paymentMethod must be card`);
  if (r.cardLast4 !== null && !isDigits(r.cardLast4, 4)) {
    throw new RangeError("cardLast4 must be 4 digits");
  }
  if (r.donorTaxId !== null && !isDigits(r.donorTaxId, 9)) {
    throw new RangeError("donorTaxId must be 9 digits");
  }
  return {
    id: text(r.id, "id", 100),
    series: r.series,
    transactionId: text(r.transactionId, "transactionId", 200),
    donorId: text(r.donorId, "donorId", 200),
    email: normalizeEmail(text(r.email, "email", 320)),
    issuedAt: isoInstant(r.issuedAt, "issuedAt"),
    giftDate: isoInstant(r.giftDate, "giftDate"),
    donorName: text(r.donorName, "donorName"),
    donorTaxId: r.donorTaxId,
    amount: checkInteger(r.amount, "amount", 1),
    currency: r.currency,
    isMonthly: r.isMonthly === true,
    paymentMethod: "card",
    cardLast4: r.cardLast4,
    issuer: canonicalIssuer(r.issuer),
    // Only a gift at a level has it: a plain donation's receipt stays as it always was.
    ...(r.membership ? { membership: canonicalReceiptMembership(r.membership, r.amount) } : {}),
  };
}
