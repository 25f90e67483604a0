/**
 * How a transaction lies in PostgreSQL's tables: the row of `transactions` and its mapping to the
 * contract's {@link Transaction}, the columns written for one, and the part of `transaction_search`
 * its search entries go to. Shared by the writes (`transactions.ts`) and the reads
 * (`transaction_lists.ts`).
 *
 * Tables:
 * - `transactions` (migration 6; `card_token`, the token a payment was charged with, migration 31):
 *   one row per recorded payment attempt, keyed by id, the donor's
 *   name and email copied in (a list never joins donors), `amount` a `bigint` of minor units,
 *   `result_data` `jsonb`. `(provider, provider_transaction_id)` is unique
 *   (`transactions_provider_transaction_key`): what makes `record` idempotent. `seq_all` numbers
 *   the row within `success-all` or `error-all` (by kind), `seq_sub` within the monthly or
 *   one-time sub-list (for errors since migration 9); `search_text` holds the lower-cased donor
 *   fields, `\x1f`-separated, for searches too broad for `transaction_search`;
 * - `transaction_counters` (migration 6, two lists added by 9): one row per list with its last
 *   sequence number, which is also its length: a page's total is read, never counted;
 * - `search_values` (migration 7): each distinct lower-cased donor field (email, first name, last
 *   name) once, with a pg_trgm GIN index (`search_values_trgm`) that finds the values containing
 *   a term;
 * - `transaction_search` (migrations 7 and 9): one entry `(part, value, seq_all)` per transaction
 *   and field value, its primary key the index searches count and page through, index-only.
 *
 * @module
 */

import { searchTextOf } from "@/lib/storage/queries.ts";
import type { ResultData, Transaction } from "@/lib/storage/types.ts";

/** The row shape of `transactions`; postgres.js reads `bigint` as a string, `jsonb` parsed. */
export interface TransactionRow {
  id: string;
  kind: Transaction["kind"];
  status_code: string;
  is_monthly: boolean;
  created_at: Date;
  donor_id: string;
  user_first_name: string;
  user_last_name: string;
  user_email: string;
  amount: string | null;
  currency: number | null;
  result_data: ResultData | null;
  error_message: string | null;
  provider: string;
  provider_transaction_id: string | null;
  card_token: string | null;
}

/** A row of `transactions` as the contract's {@link Transaction}. */
export const toTransaction = (row: TransactionRow): Transaction => ({
  id: row.id,
  kind: row.kind,
  statusCode: row.status_code,
  isMonthly: row.is_monthly,
  createdAt: row.created_at.toISOString(),
  donorId: row.donor_id,
  user: { firstName: row.user_first_name, lastName: row.user_last_name, email: row.user_email },
  amount: row.amount === null ? null : Number(row.amount),
  currency: row.currency as Transaction["currency"],
  resultData: row.result_data,
  errorMessage: row.error_message,
  provider: row.provider,
  providerTransactionId: row.provider_transaction_id,
  ...(row.card_token == null ? {} : { cardToken: row.card_token }),
});

/**
 * A transaction's columns in `transactions`, but the sequence numbers: what `record` hands to
 * `record_transaction` as JSON (migration 11) and `import` inserts, with its numbers, as rows.
 */
export const transactionColumns = (t: Transaction) => ({
  id: t.id,
  kind: t.kind,
  status_code: t.statusCode,
  is_monthly: t.isMonthly,
  created_at: t.createdAt,
  donor_id: t.donorId,
  user_first_name: t.user.firstName,
  user_last_name: t.user.lastName,
  user_email: t.user.email,
  amount: t.amount,
  currency: t.currency,
  result_data: t.resultData,
  error_message: t.errorMessage,
  provider: t.provider,
  provider_transaction_id: t.providerTransactionId,
  card_token: t.cardToken ?? null,
  search_text: searchTextOf(t.user),
});

/**
 * The part of `transaction_search` (migrations 7 and 9) a transaction's entries go to: monthly
 * and one-time successes (`m`, `o`), one-time and monthly (recurring) errors (`e`, `r`).
 */
export const searchPartOf = (t: Pick<Transaction, "kind" | "isMonthly">) =>
  t.kind === "error" ? (t.isMonthly ? "r" : "e") : t.isMonthly ? "m" : "o";

/** The parts of `transaction_search` a list reads. */
export const searchPartsOf = (kind: Transaction["kind"], isMonthly: boolean | undefined) =>
  isMonthly === undefined
    ? [searchPartOf({ kind, isMonthly: true }), searchPartOf({ kind, isMonthly: false })]
    : [searchPartOf({ kind, isMonthly })];
