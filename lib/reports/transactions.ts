/**
 * The back office's transaction history: the two lists of spec section 7, with the item shapes of
 * section 3. Storage keeps the per-list indexes; this module shapes pages for the API.
 *
 * @module
 */
import type { z } from "zod";
import type { ErrorTransactionSchema, SuccessTransactionSchema } from "./transaction_schemas.ts";
import { currencyCodeOf } from "@/lib/shared/money.ts";
import type { SearchScope, Store, TimeRange, Transaction, TransactionQuery } from "@/lib/storage/types.ts";
import { searchMatches, searchTermOf } from "@/lib/storage/queries.ts";
import { addDays, dayStart } from "@/lib/core/zoned_time.ts";
import type { Lang } from "@/lib/shared/languages.ts";
import { statusText } from "@/lib/donations/mod.ts";

export type SuccessItem = z.infer<typeof SuccessTransactionSchema>;
export type ErrorItem = z.infer<typeof ErrorTransactionSchema>;

/** A list page as the API answers it. */
export interface ListPage<T> {
  data: T[];
  page: number;
  limit: number;
  total: number;
}

/**
 * A list's query as the API reads it, and what its search matches: a viewer's search matches names
 * only ({@link searchScopeOf}).
 */
export interface ListQuery {
  page: number;
  limit: number;
  isMonthly?: boolean;
  searchString?: string;
  searchScope?: SearchScope;
  /** The language of a failed item's `statusText` (English when absent). */
  lang?: Lang;
  /** Only the transactions of these instants (`museumDays` turns the API's days into them). */
  range?: TimeRange;
  /** Only the gifts with a refund waiting for the provider ({@link pendingRefundGifts}). */
  refundPending?: boolean;
}

/**
 * The instants of the museum days `from` to `to` (both included; either absent: no bound that
 * side), or undefined without either: the lists' `from` and `to` (issue 26).
 *
 * @example
 * ```ts
 * museumDays({ from: "2026-11-29", to: "2026-11-29" }, "Asia/Jerusalem");
 * // { from: "2026-11-28T22:00:00.000Z", to: "2026-11-29T22:00:00.000Z" }
 * ```
 */
export function museumDays(days: { from?: string; to?: string }, timeZone: string): TimeRange | undefined {
  if (!days.from && !days.to) return undefined;
  return {
    from: days.from ? dayStart(days.from, timeZone) : "1970-01-01T00:00:00.000Z",
    to: days.to ? dayStart(addDays(days.to, 1), timeZone) : "9999-12-31T00:00:00.000Z",
  };
}

/** The most pending refunds {@link pendingRefundGifts} reads (their own index, oldest first). */
export const MAX_PENDING_REFUNDS = 1_000;

/**
 * The successful gifts with a refund waiting for the provider's answer (each once), newest first,
 * that also match the list's other filters (`isMonthly`, the search in its scope, `range`): read
 * from the pending refunds' index and each refunded transaction, so the work follows the pending
 * refunds (a handful), never the lists.
 *
 * @example
 * ```ts
 * await pendingRefundGifts(store, { isMonthly: true }); // [Transaction, …]
 * ```
 */
export async function pendingRefundGifts(
  store: Store,
  filters: Pick<ListQuery, "isMonthly" | "searchString" | "searchScope" | "range">,
): Promise<Transaction[]> {
  const refunds = await store.refunds.listPending("9999-12-31T00:00:00.000Z", MAX_PENDING_REFUNDS);
  const ids = [...new Set(refunds.map((r) => r.transactionId))];
  const term = searchTermOf(filters.searchString);
  // Canonical ISO instants (stored ones, and `museumDays`') compare as strings in time order.
  const range = filters.range;
  return (await Promise.all(ids.map((id) => store.transactions.get(id))))
    .filter((tx): tx is Transaction =>
      tx !== null && tx.kind === "success" &&
      (filters.isMonthly === undefined || tx.isMonthly === filters.isMonthly) &&
      (term === null || searchMatches(tx.user, term, filters.searchScope)) &&
      (!range || (tx.createdAt >= range.from && tx.createdAt < range.to))
    )
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

/**
 * What a role's search matches: names only for those who see masked addresses (a viewer), so an
 * address cannot be guessed a character at a time through the search; everything for the others.
 *
 * @example
 * ```ts
 * searchScopeOf(true); // "all"
 * ```
 */
export const searchScopeOf = (seesPersonalData: boolean): SearchScope => seesPersonalData ? "all" : "names";

/** The success-list item of spec section 3. */
export function successItem(tx: Transaction): SuccessItem {
  const r = tx.resultData;
  return {
    id: tx.id,
    statusCode: "000",
    isMonthly: tx.isMonthly,
    createdAt: tx.createdAt,
    resultData: {
      CreditCardNumber: r?.CreditCardNumber ?? "",
      CreditType: r?.CreditType ?? "",
      DebitTotal: r?.DebitTotal ?? String(tx.amount ?? 0),
      // A result recorded from the provider's answer may carry the code as a string ("1").
      DebitCurrency: currencyCodeOf(r?.DebitCurrency) ?? tx.currency ?? 1,
    },
    user: { ...tx.user },
    // Filled by the route (`lib/receipts/back_office.ts`), which knows the receipt settings.
    receipt: null,
    // Filled by `listSuccess` from the gift's refunds (issue 16).
    refund: null,
  };
}

/**
 * The error-list item of spec section 3, with the message and amount when known, and the error
 * catalogue's text for its code in `lang` (issue 26: the provider's message stays a detail).
 */
export function errorItem(tx: Transaction, lang: Lang = "en"): ErrorItem {
  return {
    id: tx.id,
    statusCode: tx.statusCode,
    isMonthly: tx.isMonthly,
    createdAt: tx.createdAt,
    errorMessage: tx.errorMessage,
    statusText: statusText(tx.statusCode, lang),
    amount: tx.amount,
    currency: tx.currency,
    user: { ...tx.user },
  };
}

/** A list's query as storage takes it. */
const storageQuery = (query: ListQuery): TransactionQuery & { isMonthly?: boolean } => ({
  page: query.page,
  limit: query.limit,
  isMonthly: query.isMonthly,
  search: query.searchString,
  searchScope: query.searchScope,
  range: query.range,
});

/**
 * One page of successful transactions, newest first.
 *
 * @example
 * ```ts
 * await listSuccess(store, { page: 1, limit: 10, isMonthly: true }); // { data, page: 1, limit: 10, total }
 * ```
 */
export async function listSuccess(
  store: Store,
  query: ListQuery,
): Promise<ListPage<SuccessItem>> {
  const { data, total } = query.refundPending
    ? await pendingRefundGifts(store, query).then((all) => ({
      data: all.slice((query.page - 1) * query.limit, query.page * query.limit),
      total: all.length,
    }))
    : await store.transactions.listSuccess(storageQuery(query));
  const refunds = await store.refunds.totals(data.map((tx) => tx.id));
  const items = data.map((tx) => ({ ...successItem(tx), refund: refunds.get(tx.id) ?? null }));
  return { data: items, page: query.page, limit: query.limit, total };
}

/**
 * One page of failed transactions, newest first; `isMonthly` keeps monthly or one-time ones only.
 *
 * @example
 * ```ts
 * await listErrors(store, { page: 2, limit: 10, isMonthly: false, searchString: "levi" });
 * ```
 */
export async function listErrors(
  store: Store,
  query: ListQuery,
): Promise<ListPage<ErrorItem>> {
  const { data, total } = await store.transactions.listErrors(storageQuery(query));
  const items = data.map((tx) => errorItem(tx, query.lang));
  return { data: items, page: query.page, limit: query.limit, total };
}

/**
 * `ada.lovelace@example.org` → `a***@example.org`: what a viewer sees of a donor's address (the
 * domain alone names nobody; the first letter helps tell rows apart).
 */
export function maskEmail(email: string): string {
  if (email === "") return ""; // an erased donor's: nothing to mask
  const at = email.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${email[0]}***${email.slice(at)}`;
}

/**
 * A list item as a viewer sees it (issue 16: names and masked emails, no other personal data):
 * the email masked, nothing of the card but its credit type (no number, no expiry date), no
 * receipt (its PDF names the donor's details). Built field by field, so a field added to the items
 * later stays out of a viewer's rows until it is added here.
 */
export function viewerItem<T extends SuccessItem | ErrorItem>(item: T): T {
  const user = {
    firstName: item.user.firstName,
    lastName: item.user.lastName,
    email: maskEmail(item.user.email),
  };
  if ("resultData" in item) {
    const { CreditType, DebitTotal, DebitCurrency } = item.resultData;
    const viewed: SuccessItem = {
      id: item.id,
      statusCode: item.statusCode,
      isMonthly: item.isMonthly,
      createdAt: item.createdAt,
      resultData: { CreditCardNumber: "", CreditType, DebitTotal, DebitCurrency },
      user,
      receipt: null,
      refund: item.refund ? { refunded: item.refund.refunded, pending: item.refund.pending } : null,
    };
    return viewed as T;
  }
  const { id, statusCode, isMonthly, createdAt, errorMessage, statusText, amount, currency } =
    item as ErrorItem;
  const viewed: ErrorItem = {
    id,
    statusCode,
    isMonthly,
    createdAt,
    errorMessage,
    statusText,
    amount,
    currency,
    user,
  };
  return viewed as T;
}
