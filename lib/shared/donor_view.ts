/**
 * The back office's donor view as the API answers it (`GET /api/donor`) and its islands read it; made
 * on the server by `lib/donors/donor_view.ts`.
 *
 * @module
 */

/** One donor record of the address, as the donor gave it on the form. */
export interface DonorRecordView {
  firstName: string;
  lastName: string;
  country: string;
  /** ISO 8601. */
  createdAt: string;
}

/** One gift (a successful payment or a declined attempt). */
export interface GiftView {
  /** The transaction's id (the transaction list's rows have it too). */
  id: string;
  createdAt: string;
  status: "success" | "failed";
  statusCode: string;
  isMonthly: boolean;
  /** Minor units, or null when a declined attempt has none. */
  amount: number | null;
  currency: 1 | 2 | null;
  /** Masked card number, when known. */
  card: string | null;
  /** The receipt's number, when one was issued. */
  receiptNumber: string | null;
  /** Why the provider declined, for a failed attempt: the provider's own message. */
  errorMessage: string | null;
  /** A failed attempt's error catalogue text in the language asked for (issue 26); null for a success. */
  statusText: string | null;
  /** What was refunded of a successful gift (issue 16), minor units; 0 when nothing was. */
  refunded: number;
}

/** A monthly gift's state, as the back office shows it. */
export type MonthlyState = "active" | "paused" | "failing" | "cancelled" | "failed";

/** One monthly gift. */
export interface MonthlyView {
  state: MonthlyState;
  amount: number;
  currency: 1 | 2;
  createdAt: string;
  /** While it goes on (active, paused, failing): the next charge's date (a pause's resume date). */
  nextCharge: string | null;
  /** Failed attempts of the current period, while failing. */
  failedAttempts: number;
  /** When the next retry is due, while failing. */
  retryAt: string | null;
  /** When it was cancelled. */
  cancelledAt: string | null;
  /** The donor's reason (one of `CANCEL_REASONS`), when cancelled with one. */
  cancelReason: string | null;
  card: string | null;
}

/** One total per currency of the successful gifts. */
export interface CurrencyTotal {
  currency: 1 | 2;
  /** Minor units. */
  amount: number;
  count: number;
}

/** The donor view of one address. */
export interface DonorView {
  email: string;
  donors: DonorRecordView[];
  /** Successful gifts, per currency, ascending by currency code. */
  totals: CurrencyTotal[];
  /** The first and the last successful gift's dates, or null when none succeeded. */
  firstGift: string | null;
  lastGift: string | null;
  /** Newest first. */
  gifts: GiftView[];
  /** Those that go on first (next charge soonest first), then those that ended (latest first). */
  monthly: MonthlyView[];
  /** False when the donor has more gifts than listed: the totals and dates cover the listed ones. */
  complete: boolean;
}

/** How many monthly gifts were cancelled with one reason. */
export interface CancelReasonCount {
  reason: string;
  count: number;
}
