/**
 * The storage contract for legal receipts (issue 14): what a receipt keeps, and how it is issued
 * once per transaction with the next number of a gapless sequence per issuing organisation.
 *
 * A receipt is a legal document: once issued it never changes, except for the report number a
 * certified issuer may add later. So it keeps a copy of everything it prints (the issuer's legal
 * details, the donor's name and ID number, the amount), not references to records that may change
 * or be erased.
 *
 * Types only, re-exported by `types.ts`.
 *
 * @module
 */

/** The organisation a receipt is issued by, as it was when the receipt was issued. */
export interface ReceiptIssuer {
  /** `museum`: the Israeli museum (ILS gifts); `friends`: its US "Friends of" organisation (USD gifts). */
  organization: "museum" | "friends";
  legalName: string;
  address: string;
  /** The Israeli non-profit number (amuta / malkar); the museum's only. */
  nonprofitNumber: string | null;
  /** The Section 46 approval number; the museum's only. */
  section46Approval: string | null;
  /** The last day the Section 46 approval is valid (`YYYY-MM-DD`). */
  section46ValidUntil: string | null;
  /** The US employer identification number; the Friends organisation's only. */
  ein: string | null;
}

/**
 * What a receipt of a gift at a membership level (issue 27) keeps of the level, as it was when the
 * receipt was issued: a level's name, value and donation share may be edited later, and a receipt
 * must keep saying what it said (`lib/receipts/membership.ts` decides the figures).
 */
export interface ReceiptMembership {
  /** The level's id (`lib/shared/museum.ts`). */
  levelId: number;
  /** The level's name in each language of the site (en, he, ru, pt, es), as printed. */
  levelName: Record<string, string>;
  /**
   * Minor units, in the receipt's currency: the good-faith value of the goods or services (the
   * membership's benefits) this payment bought, which US receipts state.
   */
  benefitsValue: number;
  /** The level's share of a payment that is a donation, percent 0..100 (Israeli receipts). */
  donationShare: number;
  /**
   * Minor units: what the receipt states as given. US receipts: the deductible amount, the
   * payment less `benefitsValue`, never below zero; Israeli receipts: `donationShare` of the
   * payment, rounded down to the agora.
   */
  donation: number;
}

/** A receipt as stored. */
export interface Receipt {
  /** Unguessable (128+ random bits, base64url), like donor ids. */
  id: string;
  /** The numbering series: the issuer's prefix and the year of issue, e.g. `IL-2026`. */
  series: string;
  /** 1, 2, 3, ... within the series: never skipped, never reused. */
  sequence: number;
  /** What the receipt prints: the series and the sequence, six digits, e.g. `IL-2026-000123`. */
  number: string;
  /** The gift; one receipt per transaction, ever. */
  transactionId: string;
  donorId: string;
  /** The donor's email address, normalized (trimmed, lower case): the yearly statement finds gifts by it. */
  email: string;
  /** ISO 8601: when the receipt was issued. */
  issuedAt: string;
  /** ISO 8601: when the gift was made (the transaction's time). */
  giftDate: string;
  /** The donor's full name as printed. */
  donorName: string;
  /** The donor's Israeli ID number (9 digits), printed on Israeli receipts; null when not given. */
  donorTaxId: string | null;
  /** Minor units (agorot, cents). */
  amount: number;
  currency: "ILS" | "USD";
  /** One monthly charge of a monthly gift (false: a one-time gift). */
  isMonthly: boolean;
  /** How the gift was paid; only cards for now. */
  paymentMethod: "card";
  /** The card's last four digits, when known. */
  cardLast4: string | null;
  issuer: ReceiptIssuer;
  /**
   * The allocation/report number a certified issuer that reports receipts to the Israel Tax
   * Authority gave this receipt; null until one is recorded.
   */
  reportNumber: string | null;
  /** The membership level the gift was at, as it was then; absent for a plain donation. */
  membership?: ReceiptMembership;
}

/** What `issue` is given: the receipt without its number (the store assigns it) and report number. */
export type NewReceipt = Omit<Receipt, "sequence" | "number" | "reportNumber">;

/** Receipts: issued once per transaction, numbered gaplessly per series, read back by their keys. */
export interface ReceiptRepository {
  /**
   * Issues the receipt of `input.transactionId` once: when that transaction already has a receipt,
   * nothing is written and it is answered with `created: false` (whatever else `input` says).
   * Otherwise the receipt takes the next number of `input.series` (the last number plus one, 1 for
   * a new series), written in one atomic step with the receipt, so numbers are never skipped nor
   * reused, across instances and under any concurrency. Refuses an invalid input (RangeError)
   * before anything is written.
   */
  issue(input: NewReceipt): Promise<{ created: boolean; receipt: Receipt }>;
  /** One receipt by id, or null. */
  get(id: string): Promise<Receipt | null>;
  /** The receipt of a transaction, or null when none was issued. */
  byTransaction(transactionId: string): Promise<Receipt | null>;
  /**
   * The receipts of these transactions, by transaction id; one without a receipt is left out. At
   * most 1,000 distinct ids (RangeError beyond). For the back office's lists: one read for a page.
   */
  byTransactions(transactionIds: readonly string[]): Promise<Map<string, Receipt>>;
  /** The receipts of these donors, newest first (issue time, then number), at most `limit` (default 100). */
  listByDonors(donorIds: string[], limit?: number): Promise<Receipt[]>;
  /** The receipts to this email address (normalized when compared), newest first, at most `limit`. */
  listByEmail(email: string, limit?: number): Promise<Receipt[]>;
  /**
   * Records the report number a certified issuer gave the receipt; answers the receipt as stored,
   * or null when there is no such receipt. A receipt that already has a different report number is
   * refused (RangeError): a reported receipt's number is final.
   */
  setReportNumber(id: string, reportNumber: string): Promise<Receipt | null>;
}
