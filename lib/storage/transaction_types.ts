/**
 * The storage contract for transactions: a recorded payment attempt, its lists, searches, scans and
 * daily totals. Types only; part of the {@link Store} in `types.ts`, which re-exports them.
 *
 * @module
 */

import type { WithMessages } from "./outbox_types.ts";
import type { WithMembership } from "./membership_types.ts";

/** Card result fields of a successful payment, named as the provider names them. */
export interface ResultData {
  /** Masked, e.g. `458045******4580`; never a full card number. */
  CreditCardNumber: string;
  CreditType: string;
  /** Minor units (agorot, cents) as a numeric string, e.g. `"10000"`. */
  DebitTotal: string;
  /** 1 = NIS, 2 = USD. */
  DebitCurrency: 1 | 2;
  VoucherId?: string | null;
  ShvaResult?: string | null;
  [field: string]: unknown;
}

/** A recorded payment attempt: a success (`statusCode` "000") or an error. */
export interface Transaction {
  id: string;
  kind: "success" | "error";
  statusCode: string;
  isMonthly: boolean;
  /** ISO 8601. */
  createdAt: string;
  donorId: string;
  /** The donor as at the payment, for the back office list and search. */
  user: { firstName: string; lastName: string; email: string };
  /** Minor units, when known. */
  amount: number | null;
  /** 1 = NIS, 2 = USD, when known. */
  currency: 1 | 2 | null;
  resultData: ResultData | null;
  errorMessage: string | null;
  /** e.g. `sandbox`, `pelecard`. */
  provider: string;
  /** The provider's id of this payment; unique per provider when present. */
  providerTransactionId: string | null;
  /**
   * The provider's card token this payment was charged with (a monthly gift's payments): a refund
   * goes back only through it (issue 23). Absent when charged without one (a one-time hosted page,
   * a terminal sale) or recorded before tokens were kept. A secret of the provider's: never
   * answered by any API, listed or logged.
   */
  cardToken?: string;
}

/** One page of a list, newest first, with the total count of the whole (filtered) list. */
export interface Page<T> {
  data: T[];
  total: number;
}

export interface TransactionQuery {
  /** 1-based. */
  page: number;
  limit: number;
  /** Case-insensitive substring of the donor's email, first or last name. */
  search?: string;
  /**
   * What `search` matches: `all` (the default) the email, first and last name; `names` the first
   * and last name only, never a value holding `@` (a viewer's search: an address is never matched,
   * so its masked part cannot be guessed a character at a time).
   */
  searchScope?: SearchScope;
  /**
   * Only the transactions with `from <= createdAt < to` (issue 26: the overview's "gifts today"
   * opens today's gifts). Found as a window of the list: from its first transaction with
   * `createdAt >= from` to the last one before its first with `createdAt >= to`, in the order
   * recorded. That order is time order (as `record` and `import` keep it, and `dailyTotals` relies
   * on), so the window holds exactly the range, and finding it costs a binary search (Deno KV) or an
   * index probe (PostgreSQL), never a scan; the page and its total are then those of the window.
   * A range whose `to` is before its `from`, or not made of ISO instants, rejects with RangeError.
   */
  range?: TimeRange;
}

/** Two instants (ISO 8601): `from` inclusive, `to` exclusive. */
export interface TimeRange {
  from: string;
  to: string;
}

/** What a search matches: every donor field, or the names only (see {@link TransactionQuery}). */
export type SearchScope = "all" | "names";

export interface TransactionRepository {
  /**
   * Records a transaction once per `(provider, providerTransactionId)`: when one with the same
   * pair exists, nothing is written and the existing one is answered with `created: false`.
   * Atomic across instances. `messages` (the receipt, ...) are enqueued in the same atomic step,
   * at `tx.createdAt`, only when the transaction is newly created; so is `membership` applied (a
   * gift at a membership level: `membership_types.ts`), at `tx.createdAt`.
   */
  record(
    tx: Transaction,
    options?: WithMessages & WithMembership,
  ): Promise<{ created: boolean; transaction: Transaction }>;
  /**
   * Records many transactions in order (oldest first) in as few round trips as the backend allows,
   * with the same idempotency per `(provider, providerTransactionId)` and the same per-list
   * sequence numbers as `record`; answers how many were new. For back-fills and imports; at most
   * 1,000 per call (more reject with a RangeError).
   *
   * A pair given twice in one call is recorded once (the first). Invalid transactions, and an id
   * given twice for different payments, are refused (RangeError) before anything is written. An
   * id that is already stored throws as in `record`; where a backend needs several commits for one
   * call (Deno KV), the transactions before the failing one may then stay recorded (a second call
   * with the same list skips them as duplicates).
   */
  import(txs: Transaction[]): Promise<number>;
  get(id: string): Promise<Transaction | null>;
  getByProviderId(provider: string, providerTransactionId: string): Promise<Transaction | null>;
  /**
   * The transactions (successful and failed) of these donors (1..100 ids), newest first
   * (`createdAt`, then id, descending), at most `limit` (1..1,000): the donor portal's history of
   * one address. Reads an index by donor, so it costs work in proportion to those donors'
   * transactions, never a scan.
   */
  listByDonors(donorIds: readonly string[], limit: number): Promise<Transaction[]>;
  /**
   * Successful transactions, newest first (in the order recorded). Without `search`, a page costs
   * work in proportion to the page, for all, monthly and one-time lists alike.
   */
  listSuccess(query: TransactionQuery & { isMonthly?: boolean }): Promise<Page<Transaction>>;
  /** Error transactions, newest first, same costs (all, monthly and one-time lists alike). */
  listErrors(query: TransactionQuery & { isMonthly?: boolean }): Promise<Page<Transaction>>;
  /**
   * One batch of a whole list, newest first (the order of `listSuccess` and `listErrors` with the
   * same filters), for reading every row (exports) without deep page offsets: pass the answer's
   * `next` as `before` to get the following batch, until `next` is null. A batch costs work in
   * proportion to the batch however deep it is (with `search`, as a search page does), and
   * transactions recorded after the first batch never show up in later ones, so the batches of
   * one walk never overlap or skip.
   *
   * A batch may hold fewer than `limit` transactions (even none) while `next` is not null (a
   * search reads a bounded part of the list per call); only `next === null` ends the list. A
   * cursor is valid only with the query that answered it; a malformed one rejects with RangeError,
   * as does a `limit` outside 1..1,000.
   */
  scan(query: TransactionScanQuery): Promise<TransactionBatch>;
  /**
   * Successful transactions with a known amount and currency, summed per period of `bounds` and
   * currency: period `i` is `bounds[i] <= createdAt < bounds[i + 1]`, as in `reports.figures`. The
   * caller decides what a day is (the museum's days, `lib/reports/daily_totals.ts`), so both
   * backends bucket by the same instants, across summer time changes, and agree with the monthly
   * report. `bounds` are 2 to `MAX_TOTALS_PERIODS` + 1 (`queries.ts`) strictly ascending ISO
   * instants; RangeError otherwise. One entry per period and currency that has any, ordered by
   * period, then currency. Costs work in proportion to the transactions in the periods. Deno KV
   * reads the success list newest first and stops at the first transaction older than `bounds[0]`:
   * it relies on the order recorded being time order, as `record` (now) and `import` (oldest
   * first) keep it.
   */
  dailyTotals(bounds: readonly string[]): Promise<DailyTotal[]>;
}

/** What `transactions.scan` reads. */
export interface TransactionScanQuery {
  kind: Transaction["kind"];
  isMonthly?: boolean;
  /** As in {@link TransactionQuery}. */
  search?: string;
  /** As in {@link TransactionQuery}: only that window of the list. */
  range?: TimeRange;
  /** The `next` of the previous batch; null or absent for the newest. */
  before?: string | null;
  /** Most transactions in the batch, 1..1,000. */
  limit: number;
}

/** One batch of `transactions.scan`. */
export interface TransactionBatch {
  data: Transaction[];
  /** The cursor of the following batch, or null when the list ends here. */
  next: string | null;
}

/** One day's sum in one currency (`transactions.dailyTotals`). */
export interface DailyTotal {
  /** Index of the period (day) in the bounds given. */
  period: number;
  /** 1 = NIS, 2 = USD. */
  currency: 1 | 2;
  /** Sum in minor units. */
  amount: number;
  /** How many transactions. */
  count: number;
}
