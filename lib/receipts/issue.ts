/**
 * Issuing a legal receipt for a gift: which organisation issues it (ILS gifts: the museum; USD
 * gifts: the "Friends of" organisation when there is one, else the museum), in which numbering
 * series (`IL-2026`, `US-2026`: the issuer's prefix and the year in its time zone), with what it
 * prints. The store gives the number (gapless per series) and keeps the receipt once per
 * transaction, so issuing again, from a resent email or a retried render, answers the same receipt.
 *
 * A gift at a membership level keeps the level with its receipt (`membership.ts`).
 *
 * Receipts are issued when the receipt email is first rendered, not in the payment's atomic step,
 * so payments never wait on the receipt counter (see PLAN14.md).
 *
 * @module
 */

import type { ReceiptSettings } from "./config.ts";
import { newId } from "@/lib/core/ids.ts";
import type { Receipt, ReceiptIssuer, Store, Transaction } from "@/lib/storage/types.ts";

import { NotReceiptableError, ReceiptsNotConfiguredError } from "./errors.ts";
import { receiptMembership } from "./membership.ts";

export { NotReceiptableError, ReceiptsNotConfiguredError };

/** Each issuer's numbering prefix and the time zone its year is counted in. */
const SERIES: Record<ReceiptIssuer["organization"], { prefix: string; timeZone: string }> = {
  museum: { prefix: "IL", timeZone: "Asia/Jerusalem" },
  friends: { prefix: "US", timeZone: "America/New_York" },
};

/** What {@link issueReceipt} is given besides the store and settings. */
export interface IssueReceiptInput {
  /** A successful transaction (`kind: "success"`, amount and currency known). */
  transaction: Transaction;
  /** The donor's full name as it should be printed. */
  donorName: string;
  /** The donor's Israeli ID number (9 digits), printed on Israeli receipts only; null when not given. */
  donorTaxId: string | null;
  /** When the receipt is issued; now by default. */
  now?: Date;
}

/** The organisation that issues the receipt of a gift in `currency`, as the settings say now. */
export function issuerFor(settings: ReceiptSettings, currency: "ILS" | "USD"): ReceiptIssuer {
  if (currency === "USD" && settings.friends) {
    const f = settings.friends;
    return {
      organization: "friends",
      legalName: f.legalName,
      address: f.address,
      nonprofitNumber: null,
      section46Approval: null,
      section46ValidUntil: null,
      ein: f.ein,
    };
  }
  const m = settings.museum;
  if (!m) throw new ReceiptsNotConfiguredError();
  return { organization: "museum", ein: null, ...m };
}

// One formatter per time zone: making one costs far more than formatting (every receipt issued).
// Bound: the issuers' zones of `SERIES` (2 entries).
const years = new Map<string, Intl.DateTimeFormat>();
/** The year of `at` in `timeZone`. */
const yearIn = (at: Date, timeZone: string) => {
  let format = years.get(timeZone);
  if (!format) years.set(timeZone, format = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric" }));
  return format.format(at);
};

/** The last four digits of a masked card number (`458045******4580`), or null. */
export function cardLast4(masked: unknown): string | null {
  if (typeof masked !== "string") return null;
  const last = masked.slice(-4);
  return last.length === 4 && [...last].every((c) => c >= "0" && c <= "9") ? last : null;
}

/**
 * Issues the receipt of a successful gift, once: the first call takes the next number of the
 * issuer's series, later calls (with any input) answer that same receipt.
 *
 * @example
 * ```ts
 * const receipt = await issueReceipt(store, config.receipts, {
 *   transaction, donorName: "Ada Lovelace", donorTaxId: donor.israeliId ?? null,
 * });
 * receipt.number; // "IL-2026-000123"
 * ```
 */
export async function issueReceipt(
  store: Store,
  settings: ReceiptSettings,
  { transaction: tx, donorName, donorTaxId, now = new Date() }: IssueReceiptInput,
): Promise<Receipt> {
  const existing = await store.receipts.byTransaction(tx.id);
  if (existing) return existing;
  if (tx.kind !== "success" || tx.amount === null || tx.amount <= 0 || tx.currency === null) {
    throw new NotReceiptableError();
  }
  const currency = tx.currency === 2 ? "USD" : "ILS";
  const issuer = issuerFor(settings, currency);
  const { prefix, timeZone } = SERIES[issuer.organization];
  const name = donorName.trim() || `${tx.user.firstName} ${tx.user.lastName}`.trim();
  // The level as it is now, kept with the receipt: a later edit of the level changes no receipt.
  const membership = await receiptMembership(store, tx, tx.amount, currency);
  const { receipt } = await store.receipts.issue({
    id: newId(),
    series: `${prefix}-${yearIn(now, timeZone)}`,
    transactionId: tx.id,
    donorId: tx.donorId,
    email: tx.user.email,
    issuedAt: now.toISOString(),
    giftDate: tx.createdAt,
    donorName: name,
    // The ID number is for the Israeli Tax Authority: a US receipt never carries it.
    donorTaxId: issuer.organization === "museum" ? donorTaxId : null,
    amount: tx.amount,
    currency,
    isMonthly: tx.isMonthly,
    paymentMethod: "card",
    cardLast4: cardLast4(tx.resultData?.CreditCardNumber),
    issuer,
    ...(membership ? { membership } : {}),
  });
  return receipt;
}
