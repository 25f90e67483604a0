/**
 * The back office's transaction lists as the API answers them (`GET /api/transaction/get-all-*`) and
 * the islands read them. `lib/reports/transaction_schemas.ts` documents and checks the same shapes
 * (its type check fails if the two part).
 *
 * @module
 */

/** The donor a transaction names. */
export interface UserRef {
  firstName: string;
  lastName: string;
  email: string;
}

/** One successful gift of the list. */
export interface SuccessItem {
  id: string;
  statusCode: "000";
  isMonthly: boolean;
  createdAt: string;
  resultData: {
    /** Masked card number. */
    CreditCardNumber: string;
    CreditType: string;
    /** Minor units, as a numeric string. */
    DebitTotal: string;
    /** 1 = NIS, 2 = USD. */
    DebitCurrency: 1 | 2;
  };
  user: UserRef;
  /** The legal receipt; null when receipts are not configured and none was issued. */
  receipt: { number: string | null; url: string } | null;
  /** What was refunded of the gift, minor units; null when nothing was. */
  refund: { refunded: number; pending: number } | null;
}

/** One declined or failed attempt of the list. */
export interface ErrorItem {
  id: string;
  statusCode: string;
  isMonthly: boolean;
  createdAt: string;
  /** The provider's own message, as it sent it (often English): a detail for the provider's support. */
  errorMessage: string | null;
  /** The error catalogue's text for `statusCode` in the language asked for (issue 26). */
  statusText: string;
  /** Minor units, when known. */
  amount: number | null;
  /** 1 = NIS, 2 = USD, when known. */
  currency: 1 | 2 | null;
  user: UserRef;
}
