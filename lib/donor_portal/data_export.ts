/**
 * The donor's personal data as JSON (issue 15, item 4: the right of access): everything the museum
 * keeps under the signed-in address, read through the same indexes as the account page, from every
 * donor record of the address however many it has (`lib/donors/records.ts`).
 *
 * What it holds: each donor record of the address (name, address, country, when; the Israeli ID
 * number masked, as everywhere but the receipt itself), every gift (date, amount, kind, status,
 * card's last four, receipt number), every monthly gift (amount, state, dates, card's last four,
 * cancel reason), every receipt (number, dates, amount, issuer, the name printed) and the emails
 * sent or queued to the address (kind, dates and state, never their text).
 *
 * What it never holds: ids (a donor id is the spec's cancel link, a capability; transaction and
 * receipt ids open nothing for the donor), card tokens, manage or sign-in tokens, session hashes, a
 * full card number (none is stored) or a provider's raw answer.
 *
 * @module
 */
import { MAX_GIFTS } from "./history.ts";
import { maskIsraeliId } from "@/lib/shared/israeli_id.ts";
import { addressRecords, listAcross } from "@/lib/donors/mod.ts";
import { newestMessageFirst } from "@/lib/storage/outbox_records.ts";
import type { Store } from "@/lib/storage/types.ts";

/** The export format's version, for whoever reads the file later. */
export const EXPORT_FORMAT = "museum-donor-data/1";
/** The most messages listed. */
export const MAX_EXPORTED_MESSAGES = 500;

const currencyCode = (currency: 1 | 2 | null) => currency === 1 ? "ILS" : currency === 2 ? "USD" : null;

function lastFour(masked: string | null | undefined): string | null {
  const digits = [...(masked ?? "")].filter((c) => c >= "0" && c <= "9").join("");
  return digits.length >= 4 ? digits.slice(-4) : null;
}

/** The export's shape (amounts in minor units, instants ISO 8601). */
export interface DonorDataExport {
  format: typeof EXPORT_FORMAT;
  exportedAt: string;
  email: string;
  donorRecords: {
    firstName: string;
    lastName: string;
    email: string;
    country: string;
    createdAt: string;
    israeliId: string | null;
  }[];
  gifts: {
    date: string;
    amount: number | null;
    currency: string | null;
    monthly: boolean;
    status: "success" | "failed";
    cardLast4: string | null;
    receiptNumber: string | null;
  }[];
  monthlyGifts: {
    amount: number;
    currency: string | null;
    status: string;
    createdAt: string;
    lastCharge: string | null;
    nextCharge: string | null;
    cancelledAt: string | null;
    cancelReason: string | null;
    cardLast4: string | null;
  }[];
  receipts: {
    number: string;
    issuedAt: string;
    giftDate: string;
    amount: number;
    currency: string;
    issuer: string;
    nameOnReceipt: string;
    israeliIdOnReceipt: string | null;
  }[];
  emails: { kind: string; createdAt: string; state: string; settledAt: string | null }[];
}

/**
 * The personal data kept under `email` (normalized), at `now`.
 *
 * @example
 * ```ts
 * const data = await donorDataExport(store, session.email);
 * ```
 */
export async function donorDataExport(
  store: Pick<Store, "donors" | "transactions" | "receipts" | "subscriptions" | "outbox">,
  email: string,
  now: Date = new Date(),
): Promise<DonorDataExport> {
  const { ids, donors, transactions: txs, receipts, subscriptions } = await addressRecords(
    store,
    email,
    MAX_GIFTS,
    true,
  );
  const messages = await listAcross(
    ids,
    MAX_EXPORTED_MESSAGES,
    newestMessageFirst,
    (chunk) => store.outbox.listByDonors(chunk, MAX_EXPORTED_MESSAGES),
  );
  const receiptOf = new Map(receipts.map((r) => [r.transactionId, r.number]));
  return {
    format: EXPORT_FORMAT,
    exportedAt: now.toISOString(),
    email,
    donorRecords: donors.map((d) => ({
      firstName: d.firstName,
      lastName: d.lastName,
      email: d.email,
      country: d.country,
      createdAt: d.createdAt,
      israeliId: d.israeliId ? maskIsraeliId(d.israeliId) : null,
    })),
    gifts: txs.map((tx) => ({
      date: tx.createdAt,
      amount: tx.amount,
      currency: currencyCode(tx.currency),
      monthly: tx.isMonthly,
      status: tx.kind === "success" ? "success" as const : "failed" as const,
      cardLast4: lastFour(tx.resultData?.CreditCardNumber),
      receiptNumber: receiptOf.get(tx.id) ?? null,
    })),
    monthlyGifts: subscriptions.map((s) => ({
      amount: s.amount,
      currency: currencyCode(s.currency),
      status: s.status,
      createdAt: s.createdAt,
      lastCharge: s.paymentDate,
      nextCharge: s.status === "active" ? s.nextPaymentDate : null,
      cancelledAt: s.cancelledAt,
      cancelReason: s.cancelReason,
      cardLast4: lastFour(s.cardMasked),
    })),
    receipts: receipts.map((r) => ({
      number: r.number,
      issuedAt: r.issuedAt,
      giftDate: r.giftDate,
      amount: r.amount,
      currency: r.currency,
      issuer: r.issuer.legalName,
      nameOnReceipt: r.donorName,
      israeliIdOnReceipt: r.donorTaxId ? maskIsraeliId(r.donorTaxId) : null,
    })),
    emails: messages.map((m) => ({
      kind: m.kind,
      createdAt: m.createdAt,
      state: m.state,
      settledAt: m.settledAt,
    })),
  };
}
